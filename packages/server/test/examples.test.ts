import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "./fixtures/assistants.ts";
import { telephonyFixtures } from "./fixtures/telephony.ts";
import { echoResponder, type FakeOpenAI, startFakeOpenAI } from "./support/fake-openai.ts";
import { startTestApp, type TestAccount, type TestApp, testDatabaseKind } from "./support/test-app.ts";

const restExamples = fileURLToPath(new URL("../../../examples/rest/", import.meta.url));
const typedClient = fileURLToPath(new URL("../../../examples/typed-client/", import.meta.url));
const scripts = readdirSync(restExamples).filter((name) => name.endsWith(".sh") && name !== "lib.sh");
const run = promisify(execFile);

/**
 * Every script of examples/rest/, run as a user would (bash, curl) against a started server holding
 * what a fresh `npm start` holds: an account with an assistant on a phone number. A script stops on
 * the first HTTP error status (lib.sh), so exit 0 means every request it made succeeded.
 */
describe.skipIf(testDatabaseKind() === "postgres")("the examples", () => {
  let t: TestApp;
  let model: FakeOpenAI;
  let owner: TestAccount;

  beforeAll(async () => {
    model = await startFakeOpenAI();
    model.respondWith(echoResponder);
    t = await startTestApp({ model });
    owner = await t.createAccount({ balance: "10" });
    const number = await telephonyFixtures(t).addNumber(owner);
    await createAssistant(t, owner, { phoneNumberId: number.id });
  });

  afterAll(async () => {
    await t?.close();
    await model?.close();
  });

  it("covers every script", () => {
    expect(scripts.sort()).toEqual([
      "api-keys.sh",
      "assistants.sh",
      "calls.sh",
      "conversations.sh",
      "generate-reply.sh",
      "knowledgebases.sh",
      "leads.sh",
      "phone-numbers.sh",
      "voices.sh",
    ]);
  });

  it.each(scripts)("%s runs against the server with only VOXGATE_URL and VOXGATE_TOKEN", async (script) => {
    const { stdout } = await run("bash", [`${restExamples}${script}`], {
      env: {
        PATH: process.env.PATH,
        VOXGATE_URL: t.url,
        VOXGATE_TOKEN: owner.apiKey,
        VOXGATE_EMAIL: owner.email,
        VOXGATE_PASSWORD: owner.password,
      },
    });
    expect(stdout.trim().length).toBeGreaterThan(0);
  });

  it("runs the typed client's query, mutation and subscription", async () => {
    const { stdout } = await run(`${typedClient}node_modules/.bin/tsx`, ["src/main.ts"], {
      cwd: typedClient,
      env: { PATH: process.env.PATH, VOXGATE_URL: t.url, VOXGATE_TOKEN: owner.apiKey },
    });
    expect(stdout).toContain(`signed in as ${owner.email}`);
    expect(stdout).toMatch(
      /created campaign #(\d+) "Typed client example"\ncampaign #\1 is draft with 0 leads/,
    );
  });

  it("stops with the server's answer on an HTTP error", async () => {
    const failed = run("bash", [`${restExamples}assistants.sh`], {
      env: { PATH: process.env.PATH, VOXGATE_URL: t.url, VOXGATE_TOKEN: "vgk_not-a-key" },
    });
    await expect(failed).rejects.toMatchObject({ code: 22, stdout: expect.stringContaining("message") });
  });
});
