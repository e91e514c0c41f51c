import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { type AddressInfo, connect, createServer as createTcpServer, type Socket } from "node:net";
import type { App } from "../../../server/src/app.ts";
import type { FakeCartesia } from "../../../server/test/support/fake-cartesia.ts";
import type { FakeDeepgram } from "../../../server/test/support/fake-deepgram.ts";
import type { HeardUtterance } from "../../../server/test/support/tone-listener.ts";

/**
 * Lets browser tests arrange server-side facts that no public endpoint exposes: a fresh account and
 * assistant per test, an emptied balance, a deleted conversation, a server at capacity, and reads a
 * web call's record. It changes data only; every widget
 * request still goes to the real Voxgate server.
 */
export interface ControlServer {
  url: string;
  /** The main server behind a TCP relay that `POST /network {up}` cuts and restores. */
  flakyApiBase: string;
  close(): Promise<void>;
}

export interface AssistantSetup {
  server?: "main" | "strict";
  balance?: string;
  name?: string;
  initialMessage?: string;
  widgetSettings?: { theme: string; color: string; position: string; voice?: boolean };
  allowedOrigins?: string[];
}

export interface CreatedAssistant {
  uuid: string;
  accountId: number;
  /** The owner's API key, for what the owner does over GraphQL (operator replies). */
  apiKey: string;
  apiBase: string;
}

/** A web call as the server stored it. */
export interface CallRecord {
  status: string;
  type: string;
  totalCost: string;
  turns: { speaker: string; text: string; played: boolean }[];
}

/** What the streaming speech fakes of the espeak-ng instance heard and said. */
export interface SpeechRecord {
  /** Every utterance Deepgram's fake heard on the server's streams, in order. */
  utterances: HeardUtterance[];
  /** Cartesia contexts: finished, cancelled. */
  contexts: { done: boolean; cancelled: boolean }[];
}

export async function startControlServer(
  apps: { main: App; strict: App },
  urls: { main: string; strict: string },
  speech?: { deepgram: FakeDeepgram; cartesia: FakeCartesia },
): Promise<ControlServer> {
  const relay = await startRelay(new URL(urls.main));
  let configuredCapacity: number | null = null;
  const handlers: Record<string, (body: Record<string, unknown>) => Promise<unknown>> = {
    async "/assistants"(body) {
      const setup = body as AssistantSetup;
      const which = setup.server ?? "main";
      const app = apps[which];
      const { account, user } = await app.services.accounts.create({
        email: `widget-${randomBytes(5).toString("hex")}@example.com`,
        password: `pw-${randomBytes(8).toString("hex")}`,
        balance: setup.balance ?? "10",
        timezone: "UTC",
      });
      const assistant = await app.db.prisma.assistant.create({
        data: {
          accountId: account.id,
          userId: user.id,
          name: setup.name ?? "Ada from Voxgate",
          initialMessage: setup.initialMessage ?? "Hello! How can I help you today?",
          ...(setup.widgetSettings ? { widgetSettings: setup.widgetSettings } : {}),
          allowedOrigins: setup.allowedOrigins ?? [],
        },
      });
      const { token } = await app.services.apiKeys.create(
        { accountId: account.id, userId: user.id },
        { name: "widget test" },
      );
      return {
        uuid: assistant.uuid,
        accountId: account.id,
        apiKey: token,
        apiBase: urls[which],
      } satisfies CreatedAssistant;
    },
    async "/balance"(body) {
      const app = apps[(body.server as "main" | "strict" | undefined) ?? "main"];
      await app.db.prisma.account.update({
        where: { id: Number(body.accountId) },
        data: { balance: String(body.balance) },
      });
      return { ok: true };
    },
    async "/conversations/delete"(body) {
      const app = apps[(body.server as "main" | "strict" | undefined) ?? "main"];
      const { count } = await app.db.prisma.conversation.deleteMany({ where: { id: String(body.id) } });
      return { deleted: count };
    },
    async "/calls/get"(body) {
      const app = apps.main;
      const id = Number(body.id);
      const call = await app.db.prisma.call.findUniqueOrThrow({ where: { id } });
      const turns = await app.db.prisma.callTurn.findMany({ where: { callId: id }, orderBy: { id: "asc" } });
      return {
        status: call.status,
        type: call.type,
        totalCost: call.totalCost.toFixed(2),
        turns: turns.map((turn) => ({
          speaker: turn.speaker,
          text: turn.text,
          played: turn.playedAt !== null,
        })),
      } satisfies CallRecord;
    },
    /** Sets the main server's capacity of live calls (null: back to its configuration). */
    async "/capacity"(body) {
      const voice = apps.main.config.voice;
      configuredCapacity ??= voice.maxLiveSessions;
      voice.maxLiveSessions = typeof body.live === "number" ? body.live : configuredCapacity;
      return { ok: true };
    },
    async "/network"(body) {
      relay.setUp(body.up === true);
      return { up: body.up === true };
    },
    /** The transcripts the streaming speech-to-text fake gives the next utterances it hears. */
    async "/speech/script"(body) {
      if (!speech) throw new Error("no streaming speech fakes on this server");
      speech.deepgram.script(...(body.transcripts as string[]));
      return { ok: true };
    },
    async "/speech/heard"() {
      if (!speech) throw new Error("no streaming speech fakes on this server");
      return {
        utterances: speech.deepgram.streams.flatMap((stream) => stream.utterances),
        contexts: speech.cartesia.contexts.map(({ done, cancelled }) => ({ done, cancelled })),
      } satisfies SpeechRecord;
    },
  };

  const server: Server = createServer(async (request, response) => {
    const cors = {
      "access-control-allow-origin": "*",
      "access-control-allow-methods": "POST",
      "access-control-allow-headers": "content-type",
    };
    if (request.method === "OPTIONS") {
      response.writeHead(204, cors).end();
      return;
    }
    const handler = handlers[request.url ?? ""];
    if (request.method !== "POST" || !handler) {
      response.writeHead(404, cors).end();
      return;
    }
    try {
      const result = await handler(await readJson(request));
      response.writeHead(200, { ...cors, "content-type": "application/json" }).end(JSON.stringify(result));
    } catch (error) {
      response
        .writeHead(500, { ...cors, "content-type": "application/json" })
        .end(JSON.stringify({ error: String(error) }));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    flakyApiBase: relay.url,
    close: async () => {
      await relay.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Forwards TCP connections to `target` while up. Going down resets every open connection (so the
 * browser cannot reuse a pooled one) and every new one: to the browser, the network is gone.
 */
async function startRelay(target: URL) {
  let up = true;
  const open = new Set<Socket>();
  const relay = createTcpServer((client) => {
    if (!up) {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on("close", () => open.delete(socket));
      socket.on("error", () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(0, "127.0.0.1", resolve));
  const { port } = relay.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    setUp(next: boolean) {
      up = next;
      if (!up) for (const socket of open) socket.resetAndDestroy();
    },
    close: () => {
      for (const socket of open) socket.destroy();
      return new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}
