import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createAssistant } from "../../test/fixtures/assistants.ts";
import { startTestApp, type TestApp } from "../../test/support/test-app.ts";
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
    t = await startTestApp({ env: { VOXGATE_WIDGET_RATE_LIMIT_PER_MINUTE: "1" } });
    const assistant = await createAssistant(t, await t.createAccount());
    expect(await startConversation(t, assistant.uuid, "203.0.113.5")).toBe(201);
    expect(await startConversation(t, assistant.uuid, "203.0.113.6")).toBe(429);
  });

  it("keys WebSocket operations by the upgrade request's client", async () => {
    t = await startTestApp({
      env: {
        VOXGATE_TRUSTED_PROXIES: "127.0.0.1",
        VOXGATE_WIDGET_RATE_LIMIT_PER_MINUTE: "1",
      },
    });
    const assistant = await createAssistant(t, await t.createAccount());
    const socket = await openGraphQLSocket(t.url, { "x-forwarded-for": "203.0.113.5" });
    try {
      const start = `mutation { startWidgetConversation(input: { assistantUuid: "${assistant.uuid}" }) { conversationId } }`;
      expect((await socket.run(start)).errors).toBeUndefined();
      expect((await socket.run(start)).errors?.[0]?.extensions?.code).toBe("RATE_LIMITED");
    } finally {
      socket.close();
    }
    // The same client over HTTP shares the key; another client does not.
    expect(await startConversation(t, assistant.uuid, "203.0.113.5")).toBe(429);
    expect(await startConversation(t, assistant.uuid, "203.0.113.6")).toBe(201);
  });
});

type OperationResult = { data?: unknown; errors?: { extensions?: Record<string, unknown> }[] };

/** A graphql-ws connection whose upgrade request carries `headers`; `run` answers one operation. */
async function openGraphQLSocket(baseUrl: string, headers: Record<string, string>) {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws", {
    headers,
  });
  const waiting = new Map<string, (result: OperationResult) => void>();
  let acknowledged: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    acknowledged = resolve;
  });
  socket.on("message", (raw) => {
    const message = JSON.parse(String(raw)) as { type: string; id?: string; payload?: unknown };
    if (message.type === "connection_ack") acknowledged();
    if (message.type === "next") waiting.get(message.id!)?.(message.payload as OperationResult);
    if (message.type === "error") waiting.get(message.id!)?.({ errors: message.payload as [] });
  });
  socket.on("open", () => socket.send(JSON.stringify({ type: "connection_init" })));
  await ready;
  let nextId = 0;
  return {
    run: (query: string) =>
      new Promise<OperationResult>((resolve) => {
        const id = String(++nextId);
        waiting.set(id, resolve);
        socket.send(JSON.stringify({ id, type: "subscribe", payload: { query } }));
      }),
    close: () => socket.close(),
  };
}
