import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";
import { muLawToPcm, pcmFromBytes } from "../../src/modules/media/index.ts";
import { type HeardUtterance, ToneListener } from "./tone-listener.ts";

/**
 * A stand-in for Deepgram live streaming, as documented: a WebSocket at `/v1/listen` with the
 * options in the query (`encoding` mulaw or linear16, `sample_rate`, `channels`, `interim_results`,
 * `endpointing` in ms, `utterance_end_ms`, `model`, `language`) and `Authorization: Token <key>`.
 * Binary messages are audio; JSON text messages are `KeepAlive` and `CloseStream` (answered with a
 * `Metadata` message, then the server closes). It sends `Results` messages: interim ones
 * (`is_final: false`) while the caller speaks, and a final one (`is_final` and `speech_final`) once
 * `endpointing` ms of silence ended the utterance, its transcript read from the caller's tone speech.
 */

export interface FakeDeepgramStream {
  headers: IncomingMessage["headers"];
  query: Record<string, string>;
  /** JSON control messages received, in order. */
  controls: { type: string }[];
  /** Audio received, in bytes. */
  audioBytes: number;
  /** Final transcripts sent. */
  finals: string[];
  /** The utterances heard, in media time, with their voiced ms. */
  utterances: HeardUtterance[];
}

export interface FakeDeepgram {
  /** Base URL to give as VOXGATE_DEEPGRAM_URL. */
  url: string;
  streams: FakeDeepgramStream[];
  /** The next time a caller starts speaking on an open stream, the server drops the connection. */
  dieOnNextSpeech(): void;
  /** The next utterance's end drops the connection instead of sending its final result. */
  dieBeforeNextFinal(): void;
  /**
   * The transcripts of the next utterances heard (real speech, which the fake cannot read), one
   * per utterance in order, on whichever stream hears them.
   */
  script(...transcripts: string[]): void;
  close(): Promise<void>;
}

export async function startFakeDeepgram(): Promise<FakeDeepgram> {
  const streams: FakeDeepgramStream[] = [];
  let dieOnSpeech = false;
  let dieBeforeFinal = false;
  const scripted: string[] = [];
  const server = createServer((_request, response) => response.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true });
  server.on("upgrade", (request, socket, head) => {
    const url = new URL(request.url ?? "/", "http://fake");
    if (url.pathname !== "/v1/listen" || !/^Token \S+/.test(request.headers.authorization ?? "")) {
      socket.end("HTTP/1.1 401 Unauthorized\r\nconnection: close\r\n\r\n");
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) =>
      connection(ws, request, Object.fromEntries(url.searchParams)),
    );
  });

  function connection(ws: WebSocket, request: IncomingMessage, query: Record<string, string>) {
    const stream: FakeDeepgramStream = {
      headers: request.headers,
      query,
      controls: [],
      audioBytes: 0,
      finals: [],
      utterances: [],
    };
    streams.push(stream);
    const sampleRate = Number(query.sample_rate);
    const mulaw = query.encoding === "mulaw";
    const send = (message: Record<string, unknown>) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
    };
    const results = (transcript: string, atMs: number, final: boolean) =>
      send({
        type: "Results",
        channel_index: [0, 1],
        duration: 0.02,
        start: atMs / 1000,
        is_final: final,
        speech_final: final,
        channel: { alternatives: [{ transcript, confidence: 0.99, words: [] }] },
        metadata: { request_id: "fake", model_info: { name: query.model } },
        from_finalize: false,
      });
    const listener = new ToneListener(sampleRate, () => Number(query.endpointing ?? 10), {
      speechStarted: () => {
        if (!dieOnSpeech) return;
        dieOnSpeech = false;
        ws.terminate();
      },
      interim: (text) => {
        if (query.interim_results === "true" && text) results(text, listener.audioMs, false);
      },
      ended: (text, atMs) => {
        if (dieBeforeFinal) {
          dieBeforeFinal = false;
          ws.terminate();
          return;
        }
        stream.finals.push(text);
        results(text, atMs, true);
      },
    });
    listener.script = scripted;
    stream.utterances = listener.heard;
    ws.on("message", (data, isBinary) => {
      const bytes = data as Buffer;
      if (isBinary) {
        stream.audioBytes += bytes.length;
        listener.push(mulaw ? muLawToPcm(bytes) : pcmFromBytes(bytes));
        return;
      }
      const message = JSON.parse(bytes.toString()) as { type: string };
      stream.controls.push(message);
      if (message.type === "CloseStream") {
        send({ type: "Metadata", request_id: "fake", duration: listener.audioMs / 1000, channels: 1 });
        ws.close(1000);
      }
    });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/v1`,
    streams,
    dieOnNextSpeech: () => {
      dieOnSpeech = true;
    },
    dieBeforeNextFinal: () => {
      dieBeforeFinal = true;
    },
    script: (...transcripts) => {
      scripted.push(...transcripts);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
