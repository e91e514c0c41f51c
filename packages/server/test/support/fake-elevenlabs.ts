import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";
import { pcmBytes } from "../../src/modules/media/index.ts";
import { synthesizeTones } from "./fake-speech.ts";

/**
 * A stand-in for ElevenLabs' input-streaming WebSocket, as documented:
 * `/v1/text-to-speech/{voice_id}/stream-input?model_id=…&output_format=pcm_24000` with the key in
 * `xi-api-key` (a wrong key is refused with HTTP 401). The first message opens the stream (`text: " "`
 * and `voice_settings`); text messages are buffered and spoken on `flush: true`, and `text: ""`
 * speaks the rest and ends with `isFinal`. Each generation is one message: base64 PCM (tone speech,
 * as `fake-speech.ts`, at the output format's rate) with the `alignment` of the characters it voices.
 */

export interface FakeElevenLabsStream {
  voiceId: string;
  query: URLSearchParams;
  /** Every message the client sent, in order. */
  messages: Record<string, unknown>[];
  /** The client closed the socket before the stream's end (a cancel). */
  closedEarly: boolean;
  /** Messages with audio sent. */
  audioSent: number;
}

export interface FakeElevenLabs {
  /** ws://… to give as ELEVENLABS_BASE_URL. */
  baseUrl: string;
  apiKey: string;
  streams: FakeElevenLabsStream[];
  /** Streams opened from now on drop their socket after this many audio messages (null: never). */
  dieAfterAudio(count: number | null): void;
  close(): Promise<void>;
}

export async function startFakeElevenLabs(apiKey = "el-test-key"): Promise<FakeElevenLabs> {
  const streams: FakeElevenLabsStream[] = [];
  let dieAfter: number | null = null;
  const server = createServer((_request, response) => response.writeHead(404).end());
  const sockets = new WebSocketServer({ noServer: true });
  server.on("upgrade", (request: IncomingMessage, socket, head) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    const match = /^\/v1\/text-to-speech\/([^/]+)\/stream-input$/.exec(url.pathname);
    if (!match || request.headers["xi-api-key"] !== apiKey) {
      socket.end("HTTP/1.1 401 Unauthorized\r\nconnection: close\r\n\r\n");
      return;
    }
    sockets.handleUpgrade(request, socket, head, (ws) =>
      serve(ws, {
        voiceId: decodeURIComponent(match[1]!),
        query: url.searchParams,
        messages: [],
        closedEarly: false,
        audioSent: 0,
      }),
    );
  });

  function serve(ws: WebSocket, stream: FakeElevenLabsStream) {
    streams.push(stream);
    const limit = dieAfter;
    const rate = Number(/^pcm_(\d+)$/.exec(stream.query.get("output_format") ?? "")?.[1] ?? 24000);
    let buffer = "";
    let ended = false;
    const speak = () => {
      const text = buffer;
      buffer = "";
      if (!text.trim()) return;
      ws.send(
        JSON.stringify({
          audio: Buffer.from(pcmBytes(synthesizeTones(text, rate))).toString("base64"),
          isFinal: null,
          alignment: {
            chars: [...text],
            charStartTimesMs: [...text].map((_, index) => index * 50),
            charDurationsMs: [...text].map(() => 50),
          },
        }),
      );
      stream.audioSent += 1;
      if (limit !== null && stream.audioSent >= limit) ws.terminate();
    };
    ws.on("message", (data) => {
      const message = JSON.parse(String(data)) as { text?: string; flush?: boolean };
      stream.messages.push(message);
      if (stream.messages.length === 1) return;
      if (message.text === "") {
        ended = true;
        speak();
        if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ isFinal: true }));
        ws.close();
        return;
      }
      buffer += message.text ?? "";
      if (message.flush) speak();
    });
    ws.on("close", () => {
      if (!ended) stream.closedEarly = true;
    });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `ws://127.0.0.1:${port}`,
    apiKey,
    streams,
    dieAfterAudio: (count) => {
      dieAfter = count;
    },
    close: async () => {
      for (const client of sockets.clients) client.terminate();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
