import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";
import { pcmBytes, pcmToMuLaw } from "../../src/modules/media/index.ts";
import { synthesizeTones } from "./fake-speech.ts";

/**
 * A stand-in for Cartesia's TTS WebSocket, as documented: `/tts/websocket?api_key=…&cartesia_version=…`
 * (a wrong key is refused with HTTP 401). Inputs carry a `context_id`; a context's transcripts are
 * joined verbatim and spoken up to their last sentence end as they come (`continue: true`), the
 * rest once an input has `continue: false`, which ends the context with `done`. Each generation is a
 * `timestamps` message (its words, with `add_timestamps`) and a `chunk` of base64 audio (tone speech,
 * as `fake-speech.ts`) in the input's `output_format`: `pcm_s16le` or `pcm_mulaw` at its
 * `sample_rate`. `{context_id, cancel: true}` drops a context; the connection multiplexes any number.
 */

export interface FakeCartesiaContext {
  id: string;
  /** Every input of the context, in order (cancel included). */
  inputs: Record<string, unknown>[];
  cancelled: boolean;
  done: boolean;
  /** Which connection (index in `connections`) carried it. */
  connection: number;
  /** The audio bytes sent for it, chunk by chunk. */
  audio: Buffer[];
}

export interface FakeCartesia {
  /** ws://… to give as CARTESIA_BASE_URL. */
  baseUrl: string;
  apiKey: string;
  /** Each connection's query. */
  connections: URLSearchParams[];
  contexts: FakeCartesiaContext[];
  /** Closes every open connection, as the provider does to an idle one. */
  dropConnections(): void;
  /** Connections still open. */
  readonly openConnections: number;
  close(): Promise<void>;
}

export async function startFakeCartesia(apiKey = "cartesia-test-key"): Promise<FakeCartesia> {
  const connections: URLSearchParams[] = [];
  const contexts: FakeCartesiaContext[] = [];
  const server = createServer((_request, response) => response.writeHead(404).end());
  const sockets = new WebSocketServer({ noServer: true });
  server.on("upgrade", (request: IncomingMessage, socket, head) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    if (
      url.pathname !== "/tts/websocket" ||
      url.searchParams.get("api_key") !== apiKey ||
      !url.searchParams.get("cartesia_version")
    ) {
      socket.end("HTTP/1.1 401 Unauthorized\r\nconnection: close\r\n\r\n");
      return;
    }
    connections.push(url.searchParams);
    const index = connections.length - 1;
    sockets.handleUpgrade(request, socket, head, (ws) => serve(ws, index));
  });

  function serve(ws: WebSocket, connection: number) {
    const buffers = new Map<string, string>();
    const send = (message: Record<string, unknown>) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ status_code: 206, ...message }));
    };
    const speak = (
      context: FakeCartesiaContext,
      text: string,
      format: { encoding?: string; sample_rate?: number },
      timestamps: boolean,
    ) => {
      if (!text.trim()) return;
      const words = text.split(/\s+/).filter(Boolean);
      if (timestamps)
        send({
          type: "timestamps",
          done: false,
          context_id: context.id,
          word_timestamps: {
            words,
            start: words.map((_, index) => index * 0.3),
            end: words.map((_, index) => index * 0.3 + 0.25),
          },
        });
      const pcm = synthesizeTones(text, format.sample_rate ?? 24000);
      const audio = Buffer.from(format.encoding === "pcm_mulaw" ? pcmToMuLaw(pcm) : pcmBytes(pcm));
      context.audio.push(audio);
      send({
        type: "chunk",
        done: false,
        step_time: 1,
        context_id: context.id,
        data: audio.toString("base64"),
      });
    };
    ws.on("message", (data) => {
      const input = JSON.parse(String(data)) as {
        context_id?: string;
        cancel?: boolean;
        transcript?: string;
        continue?: boolean;
        add_timestamps?: boolean;
        output_format?: { encoding?: string; sample_rate?: number };
      };
      const id = String(input.context_id);
      let context = contexts.find((entry) => entry.id === id && entry.connection === connection);
      if (!context) {
        context = { id, inputs: [], cancelled: false, done: false, connection, audio: [] };
        contexts.push(context);
      }
      context.inputs.push(input);
      if (input.cancel) {
        context.cancelled = true;
        return;
      }
      if (context.cancelled || context.done) return;
      const format = input.output_format ?? {};
      const text = (buffers.get(id) ?? "") + (input.transcript ?? "");
      if (input.continue) {
        const end = text.search(/[.!?](?=\s)[^.!?]*$/);
        const cut = end < 0 ? 0 : end + 1;
        speak(context, text.slice(0, cut), format, input.add_timestamps === true);
        buffers.set(id, text.slice(cut));
        return;
      }
      speak(context, text, format, input.add_timestamps === true);
      buffers.delete(id);
      context.done = true;
      send({ type: "done", done: true, context_id: id });
    });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `ws://127.0.0.1:${port}`,
    apiKey,
    connections,
    contexts,
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
