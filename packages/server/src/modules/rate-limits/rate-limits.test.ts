import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import { startRedis } from "../../../test/support/services.ts";
import {
  freshDatabase,
  ownRateLimitKeys,
  startTestApp,
  testDatabaseKind,
} from "../../../test/support/test-app.ts";

let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(() => fake?.close());

const env = (keys = ownRateLimitKeys()) => ({
  OPENAI_BASE_URL: fake.baseUrl,
  OPENAI_API_KEY: "sk-test",
  ...keys,
});

describe("generate-reply rate limit", () => {
  it("allows 5 replies a minute per API token, then 429 with Retry-After and RateLimit headers", async () => {
    const t = await startTestApp({ env: env() });
    try {
      const account = await t.createAccount({ balance: "1" });
      const assistant = await createAssistant(t, account);
      const body = { assistant_id: assistant.id, customer_identifier: "rl", message: "hi" };
      const remaining: (string | null)[] = [];
      for (let i = 0; i < 5; i++) {
        const ok = await t.rest("POST", "/api/ai/generate-reply", { token: account.apiKey, body });
        expect(ok.status).toBe(200);
        expect(ok.headers.get("ratelimit-limit")).toBe("5");
        remaining.push(ok.headers.get("ratelimit-remaining"));
      }
      expect(remaining).toEqual(["4", "3", "2", "1", "0"]);
      const refused = await t.rest("POST", "/api/ai/generate-reply", { token: account.apiKey, body });
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        success: false,
        error_code: "RATE_LIMITED",
        message: "Too many requests: at most 5 replies per minute per API token.",
      });
      const retryAfter = Number(refused.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(refused.headers.get("ratelimit-remaining")).toBe("0");
      expect(Number(refused.headers.get("ratelimit-reset"))).toBe(retryAfter);

      // GraphQL over HTTP sends the same headers, and the limit is per token: a second key has its own.
      const graphql = await fetch(`${t.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${account.apiKey}` },
        body: JSON.stringify({
          query: `mutation { generateReply(input: { assistantId: ${assistant.id}, customerIdentifier: "rl", message: "hi" }) { reply } }`,
        }),
      });
      const result = (await graphql.json()) as {
        errors: { extensions: { code: string; retryAfter: number } }[];
      };
      expect(result.errors[0]!.extensions.code).toBe("RATE_LIMITED");
      expect(graphql.headers.get("retry-after")).not.toBeNull();
      const { token } = await t.app.services.apiKeys.create(
        { accountId: account.accountId, userId: account.userId },
        { name: "second" },
      );
      expect((await t.rest("POST", "/api/ai/generate-reply", { token, body })).status).toBe(200);
      expect(
        await t.app.db.prisma.ledgerEntry.count({
          where: { accountId: account.accountId, kind: "reply_debit" },
        }),
      ).toBe(6);
    } finally {
      await t.close();
    }
  });

  it("holds across instances sharing Redis (postgres project), and per process in memory otherwise", async () => {
    if (testDatabaseKind() === "pglite") {
      const t = await startTestApp({ env: env() });
      try {
        expect(t.app.services.rateLimits.store).toBe("memory");
      } finally {
        await t.close();
      }
      return;
    }
    const database = await freshDatabase();
    const sharedKeys = ownRateLimitKeys();
    const first = await startTestApp({ env: env(sharedKeys), database: database.target });
    const second = await startTestApp({ env: env(sharedKeys), database: database.target });
    try {
      expect(first.app.services.rateLimits.store).toBe("redis");
      const account = await first.createAccount({ balance: "1" });
      const assistant = await createAssistant(first, account);
      const body = { assistant_id: assistant.id, customer_identifier: "shared", message: "hi" };
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const instance = i % 2 === 0 ? first : second;
        statuses.push(
          (await instance.rest("POST", "/api/ai/generate-reply", { token: account.apiKey, body })).status,
        );
      }
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    } finally {
      await first.close();
      await second.close();
      await database.drop();
    }
  });

  // A Redis of its own, down from the start: the others' Redis stays up.
  it.runIf(testDatabaseKind() === "postgres")(
    "starts and limits per instance while Redis is down, and counts in Redis again once it is back",
    async () => {
      const redis = await startRedis();
      await redis.crash();
      const t = await startTestApp({ env: { ...env(), REDIS_URL: redis.url } });
      try {
        expect(t.app.services.rateLimits.local).toBe(true);
        const account = await t.createAccount({ balance: "1" });
        const assistant = await createAssistant(t, account);
        const body = { assistant_id: assistant.id, customer_identifier: "outage", message: "hi" };
        const statuses: number[] = [];
        for (let i = 0; i < 6; i++) {
          statuses.push(
            (await t.rest("POST", "/api/ai/generate-reply", { token: account.apiKey, body })).status,
          );
        }
        expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);

        await redis.restart();
        for (let attempt = 0; attempt < 300 && t.app.services.rateLimits.local; attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        expect(t.app.services.rateLimits.local).toBe(false);
        // The same token, refused by this instance's memory a moment ago, counts afresh in Redis.
        const after = await t.rest("POST", "/api/ai/generate-reply", { token: account.apiKey, body });
        expect(after.status).toBe(200);
        expect(after.headers.get("ratelimit-remaining")).toBe("4");
      } finally {
        await t.close();
        await redis.stop();
      }
    },
    60_000,
  );
});
