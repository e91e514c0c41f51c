import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";
import { pcmBytes } from "../../src/modules/media/index.ts";
import { synthesizeTones } from "./fake-speech.ts";

/**
 * A stand-in for Cartesia's TTS WebSocket, as documented: `/tts/websocket?api_key=…&cartesia_version=…`
 * (a wrong key is refused with HTTP 401). Inputs carry a `context_id`; a context's transcripts are
 * joined verbatim and spoken up to their last sentence end as they come (`continue: true`), the
 * rest once an input has `continue: false`, which ends the context with `done`. Each generation is a
 * `timestamps` message (its words, with `add_timestamps`) and a `chunk` of base64 PCM (tone speech, as
 * `fake-speech.ts`, at the output format's `sample_rate`). `{context_id, cancel: true}` drops a context.
 */

export interface FakeCartesiaContext {
  id: string;
  /** Every input of the context, in order (cancel included). */
  inputs: Record<string, unknown>[];
  cancelled: boolean;
  done: boolean;
}

export interface FakeCartesia {
  /** ws://… to give as CARTESIA_BASE_URL. */
  baseUrl: string;
  apiKey: string;
  /** Each connection's query. */
  connections: URLSearchParams[];
  contexts: FakeCartesiaContext[];
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
    sockets.handleUpgrade(request, socket, head, (ws) => serve(ws));
  });

  function serve(ws: WebSocket) {
    const buffers = new Map<string, string>();
    const send = (message: Record<string, unknown>) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ status_code: 206, ...message }));
    };
    const speak = (context: FakeCartesiaContext, text: string, rate: number, timestamps: boolean) => {
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
      send({
        type: "chunk",
        done: false,
        step_time: 1,
        context_id: context.id,
        data: Buffer.from(pcmBytes(synthesizeTones(text, rate))).toString("base64"),
      });
    };
    ws.on("message", (data) => {
      const input = JSON.parse(String(data)) as {
        context_id?: string;
        cancel?: boolean;
        transcript?: string;
        continue?: boolean;
        add_timestamps?: boolean;
        output_format?: { sample_rate?: number };
      };
      const id = String(input.context_id);
      let context = contexts.find((entry) => entry.id === id);
      if (!context) {
        context = { id, inputs: [], cancelled: false, done: false };
        contexts.push(context);
      }
      context.inputs.push(input);
      if (input.cancel) {
        context.cancelled = true;
        return;
      }
      if (context.cancelled || context.done) return;
      const rate = input.output_format?.sample_rate ?? 24000;
      const text = (buffers.get(id) ?? "") + (input.transcript ?? "");
      if (input.continue) {
        const end = text.search(/[.!?](?=\s)[^.!?]*$/);
        const cut = end < 0 ? 0 : end + 1;
        speak(context, text.slice(0, cut), rate, input.add_timestamps === true);
        buffers.set(id, text.slice(cut));
        return;
      }
      speak(context, text, rate, input.add_timestamps === true);
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
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
