/**
 * The fake model server (test/support/fake-openai.ts) in a process of its own, so that the bench can
 * tell its CPU from the gateway's. It sends its base URL once listening and stops when told to. Its
 * argument "sparse" makes it embed as the tests' fake does, otherwise it answers dense vectors.
 */
import { startFakeOpenAI } from "../../packages/server/test/support/fake-openai.ts";

const fake = await startFakeOpenAI({ denseEmbeddings: process.argv[2] !== "sparse" });
process.send?.({ baseUrl: fake.baseUrl });
process.once("message", async () => {
  await fake.close();
  process.disconnect();
});
