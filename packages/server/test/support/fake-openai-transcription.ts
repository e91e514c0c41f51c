import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";
import { muLawToPcm, pcmFromBytes } from "../../src/modules/media/index.ts";
import { type HeardUtterance, ToneListener } from "./tone-listener.ts";

/**
 * A stand-in for the OpenAI Realtime API's transcription sessions, as documented: a WebSocket at
 * `/v1/realtime?intent=transcription` with a bearer key; `session.update` with a `transcription`
 * session (GA: `audio.input.format` `audio/pcmu` or 24 kHz `audio/pcm`, `transcription`,
 * `turn_detection`) or the beta `transcription_session.update` (`input_audio_format` g711_ulaw or
 * pcm16), each acknowledged; `input_audio_buffer.append` runs the server VAD (`silence_duration_ms`):
 * `speech_started`, then `speech_stopped` and `committed`, then the item's transcription as
 * `conversation.item.input_audio_transcription.delta` per word and `…completed`, read from the
 * caller's tone speech.
 */

export interface FakeTranscriptionSession {
  headers: IncomingMessage["headers"];
  intent: string | null;
  /** Every client event but audio appends, in order. */
  received: { type: string; session?: Record<string, unknown> }[];
  /** Audio appended, in ms. */
  audioMs: number;
  appends: number;
  /** The utterances heard, in media time, with their voiced ms. */
  utterances: HeardUtterance[];
}

export interface FakeOpenAiTranscription {
  /** Base URL to give as OPENAI_REALTIME_BASE_URL (http; the client dials ws). */
  baseUrl: string;
  sessions: FakeTranscriptionSession[];
  /** The transcripts of the next utterances heard (real speech), one per utterance in order. */
  script(...transcripts: string[]): void;
  close(): Promise<void>;
}

export async function startFakeOpenAiTranscription(): Promise<FakeOpenAiTranscription> {
  const sessions: FakeTranscriptionSession[] = [];
  const scripted: string[] = [];
  const server = createServer((_request, response) => response.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true });
  server.on("upgrade", (request, socket, head) => {
    const url = new URL(request.url ?? "/", "http://fake");
    if (url.pathname !== "/v1/realtime" || !/^Bearer \S+/.test(request.headers.authorization ?? "")) {
      socket.end("HTTP/1.1 401 Unauthorized\r\nconnection: close\r\n\r\n");
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => connection(ws, request, url.searchParams.get("intent")));
  });

  function connection(ws: WebSocket, request: IncomingMessage, intent: string | null) {
    let ids = 0;
    const id = (prefix: string) => `${prefix}_${++ids}`;
    const send = (event: Record<string, unknown>) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ event_id: id("event"), ...event }));
    };
    const state: FakeTranscriptionSession = {
      headers: request.headers,
      intent,
      received: [],
      audioMs: 0,
      appends: 0,
      utterances: [],
    };
    sessions.push(state);
    let format: { mulaw: boolean; rate: number } | null = null;
    let silenceMs = 500;
    let listener: ToneListener | null = null;
    let item = id("item");

    ws.on("message", (data) => {
      const event = JSON.parse(String(data)) as {
        type: string;
        session?: Record<string, unknown>;
        audio?: string;
      };
      if (event.type === "input_audio_buffer.append") {
        state.appends += 1;
        if (!format || !listener || typeof event.audio !== "string")
          return send({
            type: "error",
            error: { type: "invalid_request_error", message: "session not configured" },
          });
        const bytes = Buffer.from(event.audio, "base64");
        const pcm = format.mulaw ? muLawToPcm(bytes) : pcmFromBytes(bytes);
        state.audioMs += (pcm.length * 1000) / format.rate;
        listener.push(pcm);
        return;
      }
      state.received.push(event);
      const session = event.session ?? {};
      if (event.type === "session.update" && session.type === "transcription") {
        const input = (session.audio as { input?: Record<string, unknown> } | undefined)?.input ?? {};
        const type = (input.format as { type?: string } | undefined)?.type;
        format = type === "audio/pcm" ? { mulaw: false, rate: 24_000 } : { mulaw: true, rate: 8000 };
        silenceMs = Number(
          (input.turn_detection as { silence_duration_ms?: number } | undefined)?.silence_duration_ms ?? 500,
        );
        send({ type: "session.updated", session });
      } else if (event.type === "transcription_session.update") {
        format =
          session.input_audio_format === "pcm16"
            ? { mulaw: false, rate: 24_000 }
            : { mulaw: true, rate: 8000 };
        silenceMs = Number(
          (session.turn_detection as { silence_duration_ms?: number } | undefined)?.silence_duration_ms ??
            500,
        );
        send({ type: "transcription_session.updated", session });
      } else {
        return send({
          type: "error",
          error: { type: "invalid_request_error", message: `unknown event ${event.type}` },
        });
      }
      listener ??= new ToneListener(format.rate, () => silenceMs, {
        speechStarted: (atMs) =>
          send({ type: "input_audio_buffer.speech_started", audio_start_ms: atMs, item_id: item }),
        ended: (text, atMs) => {
          const done = item;
          item = id("item");
          send({ type: "input_audio_buffer.speech_stopped", audio_end_ms: atMs, item_id: done });
          send({ type: "input_audio_buffer.committed", item_id: done, previous_item_id: null });
          for (const word of text.split(/(?<=\s)/))
            send({
              type: "conversation.item.input_audio_transcription.delta",
              item_id: done,
              content_index: 0,
              delta: word,
            });
          send({
            type: "conversation.item.input_audio_transcription.completed",
            item_id: done,
            content_index: 0,
            transcript: text,
          });
        },
      });
      listener.script = scripted;
      state.utterances = listener.heard;
    });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    sessions,
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
