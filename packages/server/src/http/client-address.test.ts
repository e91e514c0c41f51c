import { afterEach, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/test-app.ts";
import { createAssistant, ownRateLimitKeys } from "../modules/conversations/conversations.fixtures.ts";
import { resolveClientAddress, TrustedProxies } from "./client-address.ts";

describe("resolveClientAddress", () => {
  const proxies = new TrustedProxies(["10.0.0.0/8", "127.0.0.1"]);

  it("believes X-Forwarded-For only from a trusted proxy", () => {
    expect(resolveClientAddress("10.1.2.3", "203.0.113.9", proxies)).toBe("203.0.113.9");
    expect(resolveClientAddress("198.51.100.7", "203.0.113.9", proxies)).toBe("198.51.100.7");
    expect(resolveClientAddress("10.1.2.3", null, proxies)).toBe("10.1.2.3");
    expect(resolveClientAddress("10.1.2.3", "203.0.113.9", new TrustedProxies([]))).toBe("10.1.2.3");
  });

  it("walks back past trusted hops and ignores what the client wrote before them", () => {
    expect(resolveClientAddress("127.0.0.1", "1.1.1.1, 203.0.113.9, 10.0.0.5", proxies)).toBe("203.0.113.9");
    expect(resolveClientAddress("::ffff:127.0.0.1", "203.0.113.9", proxies)).toBe("203.0.113.9");
    // A malformed hop ends the chain at the last address a trusted proxy vouched for.
    expect(resolveClientAddress("10.0.0.1", "203.0.113.9, not-an-ip", proxies)).toBe("10.0.0.1");
  });
});

describe("per-IP widget limits behind a proxy", () => {
  let t: TestApp | undefined;
  afterEach(() => t?.close());

  async function startConversation(app: TestApp, uuid: string, forwardedFor: string) {
    return (
      await app.rest("POST", `/api/widget/assistants/${uuid}/conversations`, {
        body: {},
        headers: { "x-forwarded-for": forwardedFor },
      })
    ).status;
  }

  it("keys the limit by the forwarded client when the proxy is trusted", async () => {
    t = await startTestApp({
      env: {
        ...ownRateLimitKeys(),
        VOXGATE_TRUSTED_PROXIES: "127.0.0.1",
        VOXGATE_WIDGET_RATE_LIMIT_PER_MINUTE: "1",
      },
    });
    const assistant = await createAssistant(t, await t.createAccount());
    expect(await startConversation(t, assistant.uuid, "203.0.113.5")).toBe(201);
    expect(await startConversation(t, assistant.uuid, "203.0.113.5")).toBe(429);
    expect(await startConversation(t, assistant.uuid, "203.0.113.6")).toBe(201);
  });

  it("ignores the header from an untrusted peer, so a client cannot choose its own key", async () => {
    t = await startTestApp({ env: { ...ownRateLimitKeys(), VOXGATE_WIDGET_RATE_LIMIT_PER_MINUTE: "1" } });
    const assistant = await createAssistant(t, await t.createAccount());
    expect(await startConversation(t, assistant.uuid, "203.0.113.5")).toBe(201);
    expect(await startConversation(t, assistant.uuid, "203.0.113.6")).toBe(429);
  });
});
