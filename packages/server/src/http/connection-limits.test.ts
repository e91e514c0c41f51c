import { randomBytes } from "node:crypto";
import { request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { createAssistant } from "../../test/fixtures/assistants.ts";
import { type FakeTwilio, startFakeTwilio } from "../../test/support/fake-twilio.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../test/support/test-app.ts";

/**
 * What one client may hold open, and for how long (docs/operations.md#limits), with limits set low.
 * Nothing here is timed: a test waits, within its own timeout, for what the limit must bring about,
 * and where something must not happen it is ordered after something that did.
 */

const eventually = <T>(check: () => Promise<T> | T) => vi.waitFor(check, { timeout: 20_000, interval: 50 });

/** A GET on a connection of its own (no keep-alive pool): the status and whether the server closed it. */
function getAlone(url: string): Promise<{ status: number; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { agent: false }, (response) => {
      response.resume();
      response.on("end", () =>
        resolve({ status: response.statusCode!, connection: response.headers.connection }),
      );
    })
      .on("error", reject)
      .end();
  });
}

/** A TCP connection to `url`'s port that sends nothing (yet). */
async function rawConnection(
  url: string,
): Promise<Socket & { received: () => string; ended: Promise<void> }> {
  const socket = connect(Number(new URL(url).port), "127.0.0.1");
  let received = "";
  socket.on("data", (chunk) => {
    received += chunk.toString();
  });
  socket.on("error", () => {});
  const ended = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  return Object.assign(socket, { received: () => received, ended });
}

interface Opened {
  socket: WebSocket;
  closed: Promise<{ code: number; reason: string }>;
}

/** Opens a WebSocket; resolves once it is open, or rejects with the status of a refused upgrade. */
function openSocket(url: string, options: { protocol?: string; autoPong?: boolean } = {}): Promise<Opened> {
  const socket = new WebSocket(url, options.protocol ? [options.protocol] : [], {
    autoPong: options.autoPong ?? true,
  });
  socket.on("error", () => {});
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on("close", (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  return new Promise((resolve, reject) => {
    socket.once("open", () => resolve({ socket, closed }));
    socket.once("unexpected-response", (_request, response) => {
      reject(new Error(`upgrade refused: ${response.statusCode}`));
      response.resume();
    });
  });
}

/** A graphql-ws socket that said connection_init and got its ack. */
async function graphqlSocket(t: TestApp, connectionParams: Record<string, unknown> = {}, autoPong = true) {
  const opened = await openSocket(`${t.url.replace(/^http/, "ws")}/graphql`, {
    protocol: "graphql-transport-ws",
    autoPong,
  });
  const acknowledged = new Promise<void>((resolve) => opened.socket.once("message", () => resolve()));
  opened.socket.send(JSON.stringify({ type: "connection_init", payload: connectionParams }));
  await acknowledged;
  return opened;
}

describe("per-address caps", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      env: { VOXGATE_MAX_CONNECTIONS_PER_IP: "4", VOXGATE_MAX_WEBSOCKETS_PER_IP: "2" },
    });
  });
  afterAll(() => t?.close());

  it("answers a connection past the address's cap 429 and closes it; a freed slot serves again", async () => {
    const held = await Promise.all(Array.from({ length: 4 }, () => rawConnection(t.url)));
    const refused = await getAlone(`${t.url}/healthz`);
    expect(refused).toEqual({ status: 429, connection: "close" });
    // Past the cap, a connection that sends nothing is not kept either.
    const silent = await rawConnection(t.url);
    await silent.ended;

    held[0]!.destroy();
    await eventually(async () => expect((await getAlone(`${t.url}/healthz`)).status).toBe(200));
    for (const socket of held) socket.destroy();
  });

  it("refuses a WebSocket past the address's cap with 429 before the handshake, on every path", async () => {
    const wsBase = t.url.replace(/^http/, "ws");
    const first = await openSocket(`${wsBase}/graphql`, { protocol: "graphql-transport-ws" });
    const second = await openSocket(`${wsBase}/graphql`, { protocol: "graphql-transport-ws" });
    await expect(openSocket(`${wsBase}/graphql`, { protocol: "graphql-transport-ws" })).rejects.toThrow(
      "upgrade refused: 429",
    );
    await expect(openSocket(`${wsBase}/widget/web-call?token=x`)).rejects.toThrow("upgrade refused: 429");
    // Plain HTTP from the same address goes on.
    expect((await getAlone(`${t.url}/healthz`)).status).toBe(200);

    first.socket.close();
    await first.closed;
    const third = await eventually(() =>
      openSocket(`${wsBase}/graphql`, { protocol: "graphql-transport-ws" }),
    );
    second.socket.close();
    third.socket.close();
    await Promise.all([second.closed, third.closed]);
  });
});

describe("slow and idle connections", () => {
  let t: TestApp;
  let fake: FakeTwilio;
  let owner: TestAccount;
  beforeAll(async () => {
    fake = await startFakeTwilio();
    t = await startTestApp({
      env: {
        VOXGATE_HTTP_HEADERS_TIMEOUT_SECONDS: "1",
        VOXGATE_HTTP_REQUEST_TIMEOUT_SECONDS: "2",
        VOXGATE_WS_INIT_TIMEOUT_SECONDS: "1",
        VOXGATE_WS_IDLE_SECONDS: "1",
        VOXGATE_WS_PING_SECONDS: "1",
        VOXGATE_TELEPHONY: "twilio",
        TWILIO_ACCOUNT_SID: fake.accountSid,
        TWILIO_AUTH_TOKEN: fake.authToken,
        TWILIO_API_BASE_URL: fake.baseUrl,
      },
    });
    owner = await t.createAccount();
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  /** Writes `chunk` every 100 ms until the connection closes. */
  function trickle(socket: Socket, chunk: string) {
    const timer = setInterval(() => socket.writable && socket.write(chunk), 100);
    socket.once("close", () => clearInterval(timer));
  }

  it("cuts a body that trickles in on a public route with 408", async () => {
    for (const path of [
      "/graphql",
      `/api/widget/assistants/${randomBytes(8).toString("hex")}/conversations`,
    ]) {
      const socket = await rawConnection(t.url);
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"query":"`,
      );
      trickle(socket, "a");
      await socket.ended;
      expect(socket.received()).toMatch(/^HTTP\/1\.1 408 /);
    }
  });

  it("cuts headers that trickle in, and a connection that sends nothing, with 408", async () => {
    const slowHeaders = await rawConnection(t.url);
    slowHeaders.write("GET /healthz HTTP/1.1\r\nHost: x\r\n");
    trickle(slowHeaders, "X-Slow: a\r\n");
    const silent = await rawConnection(t.url);
    await Promise.all([slowHeaders.ended, silent.ended]);
    expect(slowHeaders.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect(silent.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it("closes a graphql-ws socket that never says connection_init (4408)", async () => {
    const opened = await openSocket(`${t.url.replace(/^http/, "ws")}/graphql`, {
      protocol: "graphql-transport-ws",
    });
    expect((await opened.closed).code).toBe(4408);
  });

  it("closes an anonymous graphql-ws socket that runs nothing, and keeps one with a subscription or a credential", async () => {
    // Opened first: an idle rule that applied to them would have closed them before the idle socket.
    const authenticated = await graphqlSocket(t, { authorization: `Bearer ${owner.apiKey}` });
    const assistant = await createAssistant(t, owner);
    const started = await t.rest<{ conversation_id: string }>(
      "POST",
      `/api/widget/assistants/${assistant.uuid}/conversations`,
      { body: {} },
    );
    const subscribed = await graphqlSocket(t);
    subscribed.socket.send(
      JSON.stringify({
        id: "1",
        type: "subscribe",
        payload: {
          query: "subscription($id: ID!) { widgetConversationEvents(conversationId: $id) { id } }",
          variables: { id: started.body.conversation_id },
        },
      }),
    );
    const idle = await graphqlSocket(t);
    expect(await idle.closed).toEqual({ code: 1000, reason: "Idle" });
    expect(authenticated.socket.readyState).toBe(WebSocket.OPEN);
    expect(subscribed.socket.readyState).toBe(WebSocket.OPEN);
    authenticated.socket.close();
    subscribed.socket.close();
  });

  it("cuts a socket that stops answering pings, and keeps one that answers", async () => {
    const answering = await graphqlSocket(t, { authorization: `Bearer ${owner.apiKey}` });
    let pings = 0;
    answering.socket.on("ping", () => pings++);
    const deaf = await graphqlSocket(t, { authorization: `Bearer ${owner.apiKey}` }, false);
    expect((await deaf.closed).code).toBe(1006);
    // The answering socket was pinged as often and is still there.
    expect(pings).toBeGreaterThan(0);
    expect(answering.socket.readyState).toBe(WebSocket.OPEN);
    answering.socket.close();
  });

  it("closes a Twilio media socket that never starts its stream", async () => {
    const opened = await openSocket(`${t.url.replace(/^http/, "ws")}/telephony/twilio/media`);
    opened.socket.send(JSON.stringify({ event: "connected", protocol: "Call", version: "1.0.0" }));
    expect(await opened.closed).toEqual({ code: 1008, reason: "no start" });
  });
});
