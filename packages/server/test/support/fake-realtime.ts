import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";
import { muLawToPcm, pcmBytes, pcmFromBytes, pcmToMuLaw, rms } from "../../src/modules/media/index.ts";
import { decodeTones, synthesizeTones } from "./fake-speech.ts";

/**
 * A stand-in for the OpenAI Realtime API (GA dialect) as a local WebSocket server at
 * `/v1/realtime?model=…` with a bearer key. It follows the documented flow: `session.update` →
 * `session.updated`; `input_audio_buffer.append` of G.711 mu-law (`audio/pcmu`) or 24 kHz PCM16
 * (`audio/pcm`, as the session's `audio.input.format` says) runs an energy VAD (the session's
 * `silence_duration_ms`) that sends `speech_started` / `speech_stopped` / `committed`, transcribes
 * the turn (tone speech, as `fake-speech.ts`) into `…input_audio_transcription.completed`, and with
 * `create_response` answers; `response.create` answers too. An answer is scripted (`enqueue`) or
 * "Echo: <what the caller said>", or for a response whose instructions quote a text, that text. It
 * streams per sentence an `output_audio_transcript.delta` and an `output_audio.delta` (tone speech
 * in the session's output format), or with `output_modalities: ["text"]` an `output_text.delta`; a scripted function call
 * is an `output_item.added` + `function_call_arguments.done`. The caller's transcription comes
 * before the response, or (`transcriptionLate`) 50 ms after its first output, before the rest. `response.cancel` stops a response in
 * flight (`status: "cancelled"`), `conversation.item.truncate` is acknowledged with `…truncated`.
 */

export type FakeRealtimeAnswer = (
  | { text: string }
  | { functionCall: { name: string; arguments: Record<string, unknown> } }
) & {
  /**
   * The caller's transcription, which the API runs beside the response ("may come before or after
   * the Response events"), comes after this answer's first output rather than before the response.
   */
  transcriptionLate?: boolean;
};

export interface FakeRealtimeSession {
  /** The upgrade request's headers. */
  headers: IncomingMessage["headers"];
  model: string | null;
  /** Every client event but audio appends, in order. */
  received: { type: string; [field: string]: unknown }[];
  /** The session as the last session.update left it. */
  session: Record<string, unknown>;
  /** Audio appended, in ms. */
  audioMs: number;
  /** Sends a server event (a test playing the model's part by hand). */
  send(event: Record<string, unknown>): void;
}

export interface FakeRealtime {
  /** Base URL to give as OPENAI_REALTIME_BASE_URL (http; the client dials ws). */
  baseUrl: string;
  sessions: FakeRealtimeSession[];
  /** Answers given, in order, before falling back to echoing. */
  enqueue(...answers: FakeRealtimeAnswer[]): void;
  close(): Promise<void>;
}

/** What a test app needs to speak to this stand-in (the variables a deployment sets for its Realtime model). */
export function realtimeEnv(realtime: FakeRealtime): Record<string, string> {
  return {
    OPENAI_REALTIME_BASE_URL: realtime.baseUrl,
    OPENAI_REALTIME_API_KEY: "sk-realtime",
    OPENAI_REALTIME_MODEL: "fake-realtime",
  };
}

const VOICE_LEVEL = 500;
const SPEECH_START_MS = 60;

export async function startFakeRealtime(): Promise<FakeRealtime> {
  const sessions: FakeRealtimeSession[] = [];
  const script: FakeRealtimeAnswer[] = [];
  const server = createServer((_request, response) => response.writeHead(404).end());
  const wss = new WebSocketServer({ noServer: true });
  server.on("upgrade", (request, socket, head) => {
    const url = new URL(request.url ?? "/", "http://fake");
    if (url.pathname !== "/v1/realtime" || !/^Bearer \S+/.test(request.headers.authorization ?? "")) {
      socket.end("HTTP/1.1 401 Unauthorized\r\nconnection: close\r\n\r\n");
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => connection(ws, request, url.searchParams.get("model")));
  });

  function connection(ws: WebSocket, request: IncomingMessage, model: string | null) {
    let ids = 0;
    const id = (prefix: string) => `${prefix}_${++ids}`;
    const send = (event: Record<string, unknown>) => {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ event_id: id("event"), ...event }));
    };
    const state: FakeRealtimeSession = {
      headers: request.headers,
      model,
      received: [],
      session: {
        type: "realtime",
        output_modalities: ["audio"],
        audio: {
          input: { turn_detection: { type: "server_vad", silence_duration_ms: 500, create_response: true } },
        },
      },
      audioMs: 0,
      send,
    };
    sessions.push(state);
    let inSpeech = false;
    let voicedRun = 0;
    let silentRun = 0;
    let turn: Int16Array[] = [];
    let lastTranscript = "";
    let active: { id: string; cancelled: boolean } | null = null;

    const detection = () =>
      ((state.session.audio as { input?: { turn_detection?: Record<string, unknown> } } | undefined)?.input
        ?.turn_detection ?? {}) as { silence_duration_ms?: number; create_response?: boolean };

    const isPcm = (side: "input" | "output") =>
      (state.session.audio as Record<string, { format?: { type?: string } }> | undefined)?.[side]?.format
        ?.type === "audio/pcm";
    const rate = (side: "input" | "output") => (isPcm(side) ? 24_000 : 8000);

    function append(base64: string) {
      const bytes = Buffer.from(base64, "base64");
      const inputRate = rate("input");
      const pcm = isPcm("input") ? pcmFromBytes(bytes) : muLawToPcm(bytes);
      const frameSamples = inputRate / 50;
      for (let offset = 0; offset < pcm.length; offset += frameSamples) {
        const frame = pcm.subarray(offset, offset + frameSamples);
        const frameMs = (frame.length * 1000) / inputRate;
        state.audioMs += frameMs;
        const voiced = rms(frame) >= VOICE_LEVEL;
        if (!inSpeech) {
          voicedRun = voiced ? voicedRun + frameMs : 0;
          turn.push(frame);
          if (turn.length > 20) turn.shift();
          if (voicedRun >= SPEECH_START_MS) {
            inSpeech = true;
            silentRun = 0;
            send({
              type: "input_audio_buffer.speech_started",
              audio_start_ms: state.audioMs - voicedRun,
              item_id: id("item"),
            });
          }
          continue;
        }
        turn.push(frame);
        silentRun = voiced ? 0 : silentRun + frameMs;
        if (silentRun < (detection().silence_duration_ms ?? 500)) continue;
        inSpeech = false;
        voicedRun = 0;
        const itemId = id("item");
        send({
          type: "input_audio_buffer.speech_stopped",
          audio_end_ms: state.audioMs - silentRun,
          item_id: itemId,
        });
        send({ type: "input_audio_buffer.committed", item_id: itemId, previous_item_id: null });
        const audio = new Int16Array(turn.reduce((sum, part) => sum + part.length, 0));
        let at = 0;
        for (const part of turn) {
          audio.set(part, at);
          at += part.length;
        }
        turn = [];
        lastTranscript = decodeTones(audio, inputRate);
        const transcription = {
          type: "conversation.item.input_audio_transcription.completed",
          item_id: itemId,
          content_index: 0,
          transcript: lastTranscript,
        };
        const answers = detection().create_response !== false;
        const late = answers && script[0]?.transcriptionLate === true;
        if (!late) send(transcription);
        // Late, it takes a moment of its own (in practice hundreds of ms), and the response waits for it.
        const sendLate = async () => {
          await new Promise((resolve) => setTimeout(resolve, 50));
          send(transcription);
        };
        if (answers) void respond(null, late ? sendLate : null);
      }
    }

    /** `afterFirstOutput`: run once the response's first output was sent, before the rest. */
    async function respond(
      instructions: string | null,
      afterFirstOutput: (() => Promise<void>) | null = null,
    ) {
      const quoted = instructions ? /"([^"]*)"/.exec(instructions)?.[1] : undefined;
      const answer: FakeRealtimeAnswer =
        quoted !== undefined ? { text: quoted } : (script.shift() ?? { text: `Echo: ${lastTranscript}` });
      const response = { id: id("resp"), cancelled: false };
      active = response;
      send({ type: "response.created", response: { id: response.id, status: "in_progress", output: [] } });
      const tick = () => new Promise((resolve) => setImmediate(resolve));
      const output: Record<string, unknown>[] = [];
      if ("functionCall" in answer) {
        const item = {
          id: id("item"),
          type: "function_call",
          call_id: id("call"),
          name: answer.functionCall.name,
          arguments: JSON.stringify(answer.functionCall.arguments),
        };
        output.push(item);
        send({ type: "response.output_item.added", response_id: response.id, output_index: 0, item });
        send({
          type: "response.function_call_arguments.done",
          response_id: response.id,
          item_id: item.id,
          output_index: 0,
          call_id: item.call_id,
          name: item.name,
          arguments: item.arguments,
        });
        await afterFirstOutput?.();
        afterFirstOutput = null;
      } else {
        const item = { id: id("item"), type: "message", role: "assistant", content: [] };
        output.push(item);
        send({ type: "response.output_item.added", response_id: response.id, output_index: 0, item });
        const textOnly = (state.session.output_modalities as string[] | undefined)?.[0] === "text";
        const sentences = answer.text.match(/[^.!?]+[.!?]*\s*/g) ?? [];
        for (const sentence of sentences) {
          await tick();
          if (response.cancelled) break;
          const where = { response_id: response.id, item_id: item.id, output_index: 0, content_index: 0 };
          if (textOnly) {
            send({ type: "response.output_text.delta", ...where, delta: sentence });
          } else {
            send({ type: "response.output_audio_transcript.delta", ...where, delta: sentence });
            const tones = synthesizeTones(sentence.trim(), rate("output"));
            const audio = isPcm("output") ? pcmBytes(tones) : pcmToMuLaw(tones);
            send({
              type: "response.output_audio.delta",
              ...where,
              delta: Buffer.from(audio).toString("base64"),
            });
          }
          await afterFirstOutput?.();
          afterFirstOutput = null;
        }
      }
      if (active === response) active = null;
      await afterFirstOutput?.();
      send({
        type: "response.done",
        response: { id: response.id, status: response.cancelled ? "cancelled" : "completed", output },
      });
    }

    send({ type: "session.created", session: state.session });
    ws.on("message", (data) => {
      const event = JSON.parse(data.toString()) as { type: string; [field: string]: unknown };
      if (event.type === "input_audio_buffer.append") return append(String(event.audio));
      state.received.push(event);
      switch (event.type) {
        case "session.update":
          state.session = merge(state.session, event.session as Record<string, unknown>);
          send({ type: "session.updated", session: state.session });
          return;
        case "response.create": {
          const response = event.response as { instructions?: string } | undefined;
          void respond(response?.instructions ?? null);
          return;
        }
        case "response.cancel":
          if (!active)
            return send({
              type: "error",
              error: {
                type: "invalid_request_error",
                code: "response_cancel_not_active",
                message: "No active response",
              },
            });
          active.cancelled = true;
          return;
        case "conversation.item.truncate":
          return send({
            type: "conversation.item.truncated",
            item_id: event.item_id,
            content_index: event.content_index,
            audio_end_ms: event.audio_end_ms,
          });
        case "conversation.item.create":
          return send({
            type: "conversation.item.added",
            item: { id: id("item"), ...(event.item as object) },
          });
        default:
          return;
      }
    });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    sessions,
    enqueue: (...answers) => {
      script.push(...answers);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of wss.clients) client.terminate();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** session.update replaces only the fields it has (objects field by field, as the API documents). */
function merge(base: Record<string, unknown>, update: Record<string, unknown>): Record<string, unknown> {
  const out = { ...base };
  for (const [key, value] of Object.entries(update ?? {})) {
    const current = out[key];
    out[key] =
      value && typeof value === "object" && !Array.isArray(value) && current && typeof current === "object"
        ? merge(current as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return out;
}
