import { randomBytes } from "node:crypto";
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  LIVE_LISTEN_LIMITS,
  MAX_GRAPHQL_MESSAGE_BYTES,
  MEDIA_STREAM_LIMITS,
  WEB_CALL_LIMITS,
} from "../src/limits.ts";
import { newWebCallToken } from "../src/modules/web-calls/web-call-token.ts";
import { createAssistant } from "./fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "./fixtures/telephony.ts";
import { type FakeOpenAI, startFakeOpenAI } from "./support/fake-openai.ts";
import { type FakeSpeech, startFakeSpeech } from "./support/fake-speech.ts";
import { type FakeTwilio, startFakeTwilio } from "./support/fake-twilio.ts";
import { startTestApp, type TestAccount, type TestApp } from "./support/test-app.ts";
import { answerOutbound, voiceCallEnv } from "./support/voice-calls.ts";

/**
 * Frames no client should send, on every WebSocket path, before and after the socket is admitted:
 * each is answered on its own socket (closed, or ignored), and the server goes on serving. The app
 * runs in this process, so an error nobody handled reaches the listeners below instead of killing a
 * server; any of them fails the test.
 */

const SITE = "https://shop.example";

let twilio: FakeTwilio;
let model: FakeOpenAI;
let speech: FakeSpeech;
let t: TestApp;
let owner: TestAccount;
let wsBase: string;
let webCallAssistantUuid: string;
let phoneNumberId: number;
const uncaught: unknown[] = [];
const record = (error: unknown) => uncaught.push(error);

beforeAll(async () => {
  process.on("uncaughtException", record);
  process.on("unhandledRejection", record);
  [twilio, model, speech] = await Promise.all([startFakeTwilio(), startFakeOpenAI(), startFakeSpeech()]);
  t = await startTestApp({ model, env: voiceCallEnv(twilio, speech) });
  wsBase = t.url.replace(/^http/, "ws");
  owner = await t.createAccount({ balance: "50" });
  const number = await telephonyFixtures(t).addNumber(owner);
  phoneNumberId = number.id;
  webCallAssistantUuid = (
    await createAssistant(t, owner, { widgetSettings: { voice: true }, allowedOrigins: [SITE] })
  ).uuid;
});

afterAll(async () => {
  await t?.close();
  await Promise.all([twilio?.close(), model?.close(), speech?.close()]);
  process.off("uncaughtException", record);
  process.off("unhandledRejection", record);
});

interface Opened {
  socket: WebSocket;
  closed: Promise<{ code: number; reason: string }>;
}

async function open(path: string, options: { origin?: string; protocol?: string } = {}): Promise<Opened> {
  const socket = new WebSocket(
    `${wsBase}${path}`,
    options.protocol ? [options.protocol] : [],
    options.origin ? { origin: options.origin } : {},
  );
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    socket.on("close", (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  // The client side's own errors (a reset after the server closed) are not what is tested.
  socket.on("error", () => {});
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => resolve());
    socket.once("unexpected-response", (_request, response) =>
      reject(new Error(`upgrade refused: ${response.statusCode}`)),
    );
  });
  return { socket, closed };
}

/**
 * Resolves once the server has read everything sent before: it answers a ping after the frames
 * before it, or it has closed the socket.
 */
function settled({ socket, closed }: Opened): Promise<unknown> {
  if (socket.readyState !== WebSocket.OPEN) return closed;
  return Promise.race([
    closed,
    new Promise<void>((resolve) => {
      socket.once("pong", () => resolve());
      socket.ping();
    }),
  ]);
}

/** A socket to one WebSocket path, in one state of admission. */
interface Target {
  name: string;
  /** The largest message the path reads. */
  maxBytes: number;
  /** How the path closes this socket on its own, which may come before the server reads what was sent. */
  refusal?: number;
  connect(): Promise<Opened>;
}

const graphqlAnonymous: Target = {
  name: "/graphql, anonymous",
  maxBytes: MAX_GRAPHQL_MESSAGE_BYTES,
  connect: () => open("/graphql", { protocol: "graphql-transport-ws" }),
};

const graphqlAuthenticated: Target = {
  name: "/graphql, authenticated",
  maxBytes: MAX_GRAPHQL_MESSAGE_BYTES,
  connect: async () => {
    const opened = await open("/graphql", { protocol: "graphql-transport-ws" });
    const acknowledged = new Promise<void>((resolve) => opened.socket.once("message", () => resolve()));
    opened.socket.send(
      JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${owner.apiKey}` } }),
    );
    await acknowledged;
    return opened;
  },
};

const webCallAnonymous: Target = {
  name: "/widget/web-call, anonymous",
  maxBytes: Math.max(WEB_CALL_LIMITS.frameBytes, WEB_CALL_LIMITS.controlBytes),
  refusal: 1008,
  // Well-formed (so the socket stays open while it is looked up), naming no call.
  connect: () => open(`/widget/web-call?token=${newWebCallToken(Date.now()).forCall(999_999_999).token}`),
};

const webCallAdmitted: Target = {
  name: "/widget/web-call, admitted",
  maxBytes: Math.max(WEB_CALL_LIMITS.frameBytes, WEB_CALL_LIMITS.controlBytes),
  connect: async () => {
    const started = await t.rest<{ token: string }>(
      "POST",
      `/api/widget/assistants/${webCallAssistantUuid}/web-calls`,
      { headers: { origin: SITE } },
    );
    expect(started.status).toBe(201);
    const opened = await open(`/widget/web-call?token=${encodeURIComponent(started.body.token)}`, {
      origin: SITE,
    });
    await new Promise<void>((resolve) => opened.socket.once("message", () => resolve()));
    return opened;
  },
};

const mediaAnonymous: Target = {
  name: "Twilio media, before start",
  maxBytes: MEDIA_STREAM_LIMITS.messageBytes,
  connect: () => open("/telephony/twilio/media"),
};

const mediaStarted: Target = {
  name: "Twilio media, started",
  maxBytes: MEDIA_STREAM_LIMITS.messageBytes,
  connect: async () => {
    const assistant = await createAssistant(t, owner, { phoneNumberId });
    const call = await t.app.services.callStarts.placeOutbound({
      accountId: owner.accountId,
      assistantId: assistant.id,
      to: uniqueUsNumber(),
    });
    const token = await answerOutbound(t, twilio, call);
    const opened = await open("/telephony/twilio/media");
    const streamSid = `MZ${randomBytes(16).toString("hex")}`;
    opened.socket.send(JSON.stringify({ event: "connected", protocol: "Call", version: "1.0.0" }));
    opened.socket.send(
      JSON.stringify({ event: "start", streamSid, start: { streamSid, customParameters: { token } } }),
    );
    // The stream is admitted once the call's greeting comes back.
    await new Promise<void>((resolve) => opened.socket.once("message", () => resolve()));
    return opened;
  },
};

const liveAudioAnonymous: Target = {
  name: "/calls/live-audio, before listen",
  maxBytes: LIVE_LISTEN_LIMITS.messageBytes,
  // Whatever comes first that is no listen message closes it.
  refusal: 4400,
  connect: () => open("/calls/live-audio"),
};

/** One live call the listening target's sockets all listen to (the account's running calls are bounded). */
let liveCall: Promise<number> | null = null;
const aLiveCall = () =>
  (liveCall ??= mediaStarted.connect().then(() =>
    t.app.db.prisma.call
      .findFirstOrThrow({
        where: { accountId: owner.accountId, status: "in_progress" },
        orderBy: { id: "desc" },
      })
      .then((call) => call.id),
  ));

const liveAudioListening: Target = {
  name: "/calls/live-audio, listening",
  maxBytes: LIVE_LISTEN_LIMITS.messageBytes,
  // A listener has nothing to say after its listen: anything closes it.
  refusal: 4400,
  connect: async () => {
    const callId = await aLiveCall();
    const opened = await open("/calls/live-audio");
    const listening = new Promise<void>((resolve) => opened.socket.once("message", () => resolve()));
    opened.socket.send(JSON.stringify({ type: "listen", callId, authorization: `Bearer ${owner.apiKey}` }));
    await listening;
    return opened;
  },
};

const targets = [
  graphqlAnonymous,
  graphqlAuthenticated,
  webCallAnonymous,
  webCallAdmitted,
  mediaAnonymous,
  mediaStarted,
  liveAudioAnonymous,
  liveAudioListening,
];

/** Hostile things to send on an open socket. */
const frames: { name: string; send(opened: Opened, target: Target): void }[] = [
  {
    name: "a binary frame",
    send: ({ socket }) => socket.send(randomBytes(200), { binary: true }),
  },
  {
    name: "truncated JSON",
    send: ({ socket }) => socket.send('{"type":"connection_init","payload":{"authorization":"Bea'),
  },
  {
    name: "text that is not JSON",
    send: ({ socket }) => socket.send("\u0000\u0001 not json at all }{"),
  },
  {
    name: "bytes that are no WebSocket frame",
    // Straight onto the connection, past the client's framing: the server reads a broken frame.
    // The header is fixed (reserved bits set, a reserved opcode): random header bytes sometimes
    // announce a well-formed frame longer than what follows, and a server rightly waits for the rest.
    send: ({ socket }) =>
      (socket as unknown as { _socket: NodeJS.WritableStream })._socket.write(
        Buffer.concat([Buffer.from([0xf3, 0xbe]), randomBytes(62)]),
      ),
  },
];

async function expectStillServing() {
  expect(uncaught.splice(0)).toEqual([]);
  expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
  const fresh = await graphqlAuthenticated.connect();
  fresh.socket.close();
}

describe("hostile WebSocket frames", () => {
  for (const target of targets) {
    describe(target.name, () => {
      it("closes the socket with 1009 on a frame larger than the path reads, and stays up", async () => {
        for (const binary of [true, false]) {
          const opened = await target.connect();
          const frame = Buffer.alloc(target.maxBytes + 1024, 0x61);
          opened.socket.send(binary ? frame : frame.toString(), { binary });
          expect([1009, target.refusal]).toContain((await opened.closed).code);
        }
        await expectStillServing();
      });

      for (const frame of frames) {
        it(`survives ${frame.name}`, async () => {
          const opened = await target.connect();
          frame.send(opened, target);
          await settled(opened);
          opened.socket.terminate();
          await opened.closed;
          await expectStillServing();
        });
      }
    });
  }

  it("answers requests that are no HTTP 400, and connections reset mid-request, and stays up", async () => {
    const { port } = new URL(t.url);
    const raw = connect(Number(port), "127.0.0.1");
    let answer = "";
    raw.on("data", (chunk) => {
      answer += chunk.toString();
    });
    raw.on("error", () => {});
    const ended = new Promise<void>((resolve) => raw.once("close", () => resolve()));
    raw.write(randomBytes(512));
    await ended;
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    await Promise.all(
      Array.from({ length: 20 }, async () => {
        const reset = connect(Number(port), "127.0.0.1");
        reset.on("error", () => {});
        await new Promise<void>((resolve) => reset.once("connect", () => resolve()));
        reset.write(
          "POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 9999\r\n\r\n{",
        );
        reset.resetAndDestroy();
      }),
    );
    await expectStillServing();
  });

  it("refuses an upgrade on an unknown path, whatever the client sends or however it leaves", async () => {
    for (let attempt = 0; attempt < 20; attempt++) {
      await expect(open("/nowhere")).rejects.toThrow("upgrade refused: 404");
    }
    // Clients that reset the connection while the refusal is written.
    const { port } = new URL(t.url);
    await Promise.all(
      Array.from({ length: 50 }, async () => {
        const raw = connect(Number(port), "127.0.0.1");
        raw.on("error", () => {});
        await new Promise<void>((resolve) => raw.once("connect", () => resolve()));
        raw.write(
          "GET /nowhere HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
            `Sec-WebSocket-Key: ${randomBytes(16).toString("base64")}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
        );
        raw.write(randomBytes(1024));
        raw.resetAndDestroy();
        await new Promise<void>((resolve) => raw.once("close", () => resolve()));
      }),
    );
    await expectStillServing();
  });
});
