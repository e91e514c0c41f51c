import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";
import { pcmBytes, pcmToMuLaw } from "../../src/modules/media/index.ts";
import { synthesizeTones } from "./fake-speech.ts";

/**
 * A stand-in for ElevenLabs' multi-context WebSocket, as documented:
 * `/v1/text-to-speech/{voice_id}/multi-stream-input?model_id=…&output_format=…` with the key in
 * `xi-api-key` (a wrong key is refused with HTTP 401). Every client message names its
 * `context_id`; a context's first message (`text: " "` with `voice_settings`) opens it. Text is
 * buffered per context and spoken on `flush: true`; `close_context` drops what was not flushed and
 * ends the context with `{isFinal: true, contextId}` (the flushed audio was sent before it);
 * `{close_socket: true}` closes the connection. Each generation is one message: base64 audio in
 * the connection's `output_format` (tone speech, as `fake-speech.ts`: `pcm_<rate>` 16-bit PCM,
 * `ulaw_8000` G.711 mu-law), the `alignment` of the characters it voices, and the `contextId`.
 */

export interface FakeElevenLabsContext {
  id: string;
  voiceId: string;
  /** The query of the connection it was opened on. */
  query: URLSearchParams;
  /** Which connection (index in `connections`) carried it. */
  connection: number;
  /** Every message the client sent for the context, in order. */
  messages: Record<string, unknown>[];
  /** The context was closed (`isFinal` sent). */
  closed: boolean;
  /** Messages with audio sent, and their bytes. */
  audioSent: number;
  audio: Buffer[];
}

export interface FakeElevenLabs {
  /** ws://… to give as ELEVENLABS_BASE_URL. */
  baseUrl: string;
  apiKey: string;
  /** Each accepted WebSocket upgrade's voice and query, in order. */
  connections: { voiceId: string; query: URLSearchParams }[];
  contexts: FakeElevenLabsContext[];
  /** Connections opened from now on drop after this many audio messages (null: never). */
  dieAfterAudio(count: number | null): void;
  /** Closes every open connection, as the provider does to an idle one. */
  dropConnections(): void;
  /** Connections still open. */
  readonly openConnections: number;
  close(): Promise<void>;
}

export async function startFakeElevenLabs(apiKey = "el-test-key"): Promise<FakeElevenLabs> {
  const connections: FakeElevenLabs["connections"] = [];
  const contexts: FakeElevenLabsContext[] = [];
  let dieAfter: number | null = null;
  const server = createServer((_request, response) => response.writeHead(404).end());
  const sockets = new WebSocketServer({ noServer: true });
  server.on("upgrade", (request: IncomingMessage, socket, head) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    const match = /^\/v1\/text-to-speech\/([^/]+)\/multi-stream-input$/.exec(url.pathname);
    if (!match || request.headers["xi-api-key"] !== apiKey) {
      socket.end("HTTP/1.1 401 Unauthorized\r\nconnection: close\r\n\r\n");
      return;
    }
    const voiceId = decodeURIComponent(match[1]!);
    connections.push({ voiceId, query: url.searchParams });
    const index = connections.length - 1;
    sockets.handleUpgrade(request, socket, head, (ws) => serve(ws, voiceId, url.searchParams, index));
  });

  function audioFor(text: string, format: string): Buffer {
    if (format === "ulaw_8000") return Buffer.from(pcmToMuLaw(synthesizeTones(text, 8000)));
    const rate = Number(/^pcm_(\d+)$/.exec(format)?.[1] ?? 24000);
    return Buffer.from(pcmBytes(synthesizeTones(text, rate)));
  }

  function serve(ws: WebSocket, voiceId: string, query: URLSearchParams, connection: number) {
    const limit = dieAfter;
    const format = query.get("output_format") ?? "pcm_24000";
    const buffers = new Map<string, string>();
    let sent = 0;
    const send = (message: Record<string, unknown>) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    };
    const speak = (context: FakeElevenLabsContext) => {
      const text = buffers.get(context.id) ?? "";
      buffers.set(context.id, "");
      if (!text.trim()) return;
      const audio = audioFor(text, format);
      send({
        audio: audio.toString("base64"),
        alignment: {
          chars: [...text],
          charStartTimesMs: [...text].map((_, index) => index * 50),
          charDurationsMs: [...text].map(() => 50),
        },
        contextId: context.id,
      });
      context.audioSent += 1;
      context.audio.push(audio);
      sent += 1;
      if (limit !== null && sent >= limit) ws.terminate();
    };
    ws.on("message", (data) => {
      const message = JSON.parse(String(data)) as {
        text?: string;
        flush?: boolean;
        context_id?: string;
        close_context?: boolean;
        close_socket?: boolean;
      };
      if (message.close_socket) {
        ws.close();
        return;
      }
      const id = String(message.context_id);
      let context = contexts.find((entry) => entry.id === id && entry.connection === connection);
      if (!context) {
        context = {
          id,
          voiceId,
          query,
          connection,
          messages: [],
          closed: false,
          audioSent: 0,
          audio: [],
        };
        contexts.push(context);
        buffers.set(id, "");
      }
      context.messages.push(message);
      if (context.closed) return;
      if (message.close_context) {
        context.closed = true;
        buffers.delete(id);
        send({ isFinal: true, contextId: id });
        return;
      }
      // The opening `text: " "` only opens the context.
      if (context.messages.length > 1) buffers.set(id, (buffers.get(id) ?? "") + (message.text ?? ""));
      if (message.flush) speak(context);
    });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `ws://127.0.0.1:${port}`,
    apiKey,
    connections,
    contexts,
    dieAfterAudio: (count) => {
      dieAfter = count;
    },
    dropConnections: () => {
      for (const client of sockets.clients) client.close();
    },
    get openConnections() {
      return sockets.clients.size;
    },
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
