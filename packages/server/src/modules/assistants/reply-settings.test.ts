import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import {
  freshDatabase,
  startTestApp,
  type TestAccount,
  type TestApp,
  testDatabaseKind,
} from "../../../test/support/test-app.ts";

/** Far longer than any test: a change seen here reached the cache, it did not age out. */
const LONG_TTL = { VOXGATE_ASSISTANT_CACHE_SECONDS: "600", VOXGATE_REPLY_RATE_LIMIT_PER_MINUTE: "1000" };

const UPDATE = `mutation($id: Int!, $input: UpdateAssistantInput!) { updateAssistant(id: $id, input: $input) { id } }`;

/**
 * Asks for a reply and answers with the system prompt the model was sent (the fake model records
 * it), or with the HTTP status when there was no reply.
 */
async function promptOfReply(t: TestApp, fake: FakeOpenAI, owner: TestAccount, assistantId: number) {
  const sentBefore = fake.chatRequests.length;
  const response = await t.rest("POST", "/api/ai/generate-reply", {
    token: owner.apiKey,
    body: { assistant_id: assistantId, customer_identifier: "cache-test", message: "Hello?" },
  });
  if (response.status !== 200) return `status ${response.status}`;
  const system = fake.chatRequests[sentBefore]?.messages[0]?.content ?? "";
  return system.split("\n")[0]!;
}

async function updatePrompt(t: TestApp, owner: TestAccount, id: number, systemPrompt: string) {
  const updated = await t.gql(UPDATE, { id, input: { systemPrompt } }, { token: owner.apiKey });
  expect(updated.errors).toBeUndefined();
}

describe("reply settings cache on one instance", () => {
  let fake: FakeOpenAI;
  let cached: TestApp;
  let uncached: TestApp;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    [cached, uncached] = await Promise.all([
      startTestApp({ model: fake, env: LONG_TTL }),
      startTestApp({ model: fake, env: { ...LONG_TTL, VOXGATE_ASSISTANT_CACHE_SECONDS: "0" } }),
    ]);
  });
  afterAll(() => Promise.all([cached?.close(), uncached?.close(), fake?.close()]));

  it("reuses an assistant's settings without the database, and not when turned off", async () => {
    for (const [app, afterSilentChange] of [
      [cached, "First prompt."],
      [uncached, "Changed behind its back."],
    ] as const) {
      const owner = await app.createAccount({ balance: "10" });
      const assistant = await createAssistant(app, owner, { systemPrompt: "First prompt." });
      expect(await promptOfReply(app, fake, owner, assistant.id)).toBe("First prompt.");
      // Written behind the server's back, announcing nothing: only a cached entry still answers.
      await app.app.db.prisma.assistant.update({
        where: { id: assistant.id },
        data: { systemPrompt: "Changed behind its back." },
      });
      expect(await promptOfReply(app, fake, owner, assistant.id)).toBe(afterSilentChange);
    }
  });

  it("replies with an assistant's new settings as soon as it is updated, and not after it is deleted", async () => {
    const owner = await cached.createAccount({ balance: "10" });
    const assistant = await createAssistant(cached, owner, { systemPrompt: "Before." });
    expect(await promptOfReply(cached, fake, owner, assistant.id)).toBe("Before.");
    await updatePrompt(cached, owner, assistant.id, "After.");
    expect(await promptOfReply(cached, fake, owner, assistant.id)).toBe("After.");

    const deleted = await cached.gql(
      `mutation($id: Int!) { deleteAssistant(id: $id) { deletedId } }`,
      { id: assistant.id },
      { token: owner.apiKey },
    );
    expect(deleted.errors).toBeUndefined();
    expect(await promptOfReply(cached, fake, owner, assistant.id)).toBe("status 404");
  });

  it("never answers for another account's cached assistant", async () => {
    const [owner, stranger] = await Promise.all([
      cached.createAccount({ balance: "10" }),
      cached.createAccount({ balance: "10" }),
    ]);
    const assistant = await createAssistant(cached, owner);
    expect(await promptOfReply(cached, fake, owner, assistant.id)).toBe("You are a helpful assistant.");
    expect(await promptOfReply(cached, fake, stranger, assistant.id)).toBe("status 404");
  });
});

describe.skipIf(testDatabaseKind() !== "postgres")(
  "reply settings cache across instances sharing Redis",
  () => {
    it("replies on the other instance with the new settings, and refuses a deleted assistant, before the TTL", async () => {
      const fake = await startFakeOpenAI();
      const database = await freshDatabase();
      const first = await startTestApp({ model: fake, database: database.target, env: LONG_TTL });
      const second = await startTestApp({ model: fake, database: database.target, env: LONG_TTL });
      try {
        const owner = await first.createAccount({ balance: "10" });
        const assistant = await createAssistant(first, owner, { systemPrompt: "Before." });
        expect(await promptOfReply(second, fake, owner, assistant.id)).toBe("Before.");

        // The change travels through Redis: the other instance hears it within moments, where without
        // it the entry would live for the whole TTL (ten minutes).
        await updatePrompt(first, owner, assistant.id, "After.");
        await expect
          .poll(() => promptOfReply(second, fake, owner, assistant.id), { timeout: 5000 })
          .toBe("After.");

        const deleted = await first.gql(
          `mutation($id: Int!) { deleteAssistant(id: $id) { deletedId } }`,
          { id: assistant.id },
          { token: owner.apiKey },
        );
        expect(deleted.errors).toBeUndefined();
        await expect
          .poll(() => promptOfReply(second, fake, owner, assistant.id), { timeout: 5000 })
          .toBe("status 404");
      } finally {
        await first.close();
        await second.close();
        await database.drop();
        await fake.close();
      }
    });
  },
);
