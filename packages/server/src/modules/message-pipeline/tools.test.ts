import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { startWebhookServer } from "../../../test/fixtures/webhooks.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import type { TestAccount, TestApp } from "../../../test/support/test-app.ts";
import { startTestApp } from "../../../test/support/test-app.ts";

let t: TestApp;
let fake: FakeOpenAI;
let owner: TestAccount;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await startTestApp({
    model: fake,
    env: { OPENAI_MODEL: "fake-model", VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1" },
  });
  owner = await t.createAccount({ balance: "1" });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("webhook tools and redirects", () => {
  it("sends the configured secret headers to the webhook's origin only, never across a redirect to another", async () => {
    // Two ports: two origins.
    const elsewhere = await startWebhookServer(() => ({ body: { from: "elsewhere" } }));
    const webhook = await startWebhookServer((call) => {
      if (call.url.startsWith("/away"))
        return { status: 307, body: "", headers: { location: `${elsewhere.url}/landing` } };
      if (call.url.startsWith("/here")) return { status: 307, body: "", headers: { location: "/final" } };
      return { body: { from: "webhook" } };
    });
    try {
      const headers = { "X-Secret": "s3cret", Authorization: "Bearer tool-token", "x-tenant": "acme" };
      const tool = (name: string, path: string) => ({
        name,
        parameters: { type: "object", properties: {} },
        url: `${webhook.url}${path}`,
        method: "POST",
        headers,
        timeout: 5,
      });
      const assistant = await createAssistant(t, owner, {
        tools: [tool("away", "/away"), tool("here", "/here")],
      });
      fake.enqueue({
        toolCalls: [
          { name: "away", arguments: { n: 1 } },
          { name: "here", arguments: { n: 2 } },
        ],
      });
      fake.respondWith(() => ({ content: "Done." }));
      const response = await t.rest<{ function_calls: { name: string; error: string | null }[] }>(
        "POST",
        "/api/ai/generate-reply",
        {
          token: owner.apiKey,
          body: { assistant_id: assistant.id, customer_identifier: "c", message: "go" },
        },
      );
      expect(response.status).toBe(200);
      expect(response.body.function_calls.map((call) => call.error)).toEqual([null, null]);

      const secretHeaders = ["x-secret", "authorization", "x-tenant"];
      const present = (call: { headers: Record<string, unknown> }) =>
        secretHeaders.filter((name) => call.headers[name] !== undefined);
      // The other origin got the (307: repeated) request, without any of them.
      expect(elsewhere.calls).toHaveLength(1);
      expect(elsewhere.calls[0]).toMatchObject({ method: "POST", url: "/landing", body: '{"n":1}' });
      expect(present(elsewhere.calls[0]!)).toEqual([]);
      // The webhook's own origin got them on every hop.
      expect(webhook.calls.map((call) => call.url).sort()).toEqual(["/away", "/final", "/here"]);
      for (const call of webhook.calls) expect(present(call)).toEqual(secretHeaders);
      expect(webhook.calls.find((call) => call.url === "/final")!.headers["x-secret"]).toBe("s3cret");
    } finally {
      await webhook.close();
      await elsewhere.close();
    }
  });
});

describe("text the database cannot store", () => {
  it("stores model replies, tool arguments and webhook answers with NUL characters and lone surrogates cleaned", async () => {
    const webhook = await startWebhookServer(() => ({
      body: '{"status":"ok\\u0000","bad\\u0000key":"\\ud800x","emoji":"\\ud83d\\ude00"}',
    }));
    try {
      const assistant = await createAssistant(t, owner, {
        tools: [
          {
            name: "lookup",
            parameters: { type: "object", properties: {} },
            url: `${webhook.url}/lookup`,
            method: "POST",
            timeout: 5,
          },
        ],
      });
      fake.enqueue({ toolCalls: [{ name: "lookup", arguments: '{"q":"a\\u0000b"}' }] });
      fake.enqueue({ content: "Found\u0000 it \ud800 😀" });
      const response = await t.rest<{
        reply: string;
        function_calls: { arguments: unknown; result: unknown; error: string | null }[];
      }>("POST", "/api/ai/generate-reply", {
        token: owner.apiKey,
        body: { assistant_id: assistant.id, customer_identifier: "nul-cleaning", message: "go" },
      });
      expect(response.status).toBe(200);
      expect(response.body.reply).toBe("Found it \ufffd 😀");
      expect(response.body.function_calls[0]).toMatchObject({
        arguments: { q: "ab" },
        result: { status: "ok", badkey: "\ufffdx", emoji: "😀" },
        error: null,
      });
    } finally {
      await webhook.close();
    }
  });
});
