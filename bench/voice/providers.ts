/**
 * Turn latency through the speech providers' production clients and their local fakes (real
 * loopback sockets), batch against streaming, in one run: see README.md, "4. Speech providers".
 */
import { performance } from "node:perf_hooks";
import type { VoiceConfig } from "../../packages/server/src/env.ts";
import { createLogger } from "../../packages/server/src/logger.ts";
import {
  type MediaStream,
  PHONE_FORMAT,
  pcmToMuLaw,
  wavFile,
} from "../../packages/server/src/modules/media/index.ts";
import { DeepgramTranscriber } from "../../packages/server/src/modules/voice/deepgram-transcriber.ts";
import { PipelineSession } from "../../packages/server/src/modules/voice/pipeline-session.ts";
import type { PipelinePorts } from "../../packages/server/src/modules/voice/session-ports.ts";
import type {
  SpeechConnection,
  StreamingSynthesizer,
} from "../../packages/server/src/modules/voice/speech.ts";
import {
  OpenAiSynthesizer,
  OpenAiTranscriber,
} from "../../packages/server/src/modules/voice/speech-client.ts";
import {
  CartesiaSynthesizer,
  ElevenLabsSynthesizer,
} from "../../packages/server/src/modules/voice/streaming-speech.ts";
import { endpointMs } from "../../packages/server/src/modules/voice/turn-detector.ts";
import { startFakeCartesia } from "../../packages/server/test/support/fake-cartesia.ts";
import { type FakeDeepgram, startFakeDeepgram } from "../../packages/server/test/support/fake-deepgram.ts";
import { startFakeElevenLabs } from "../../packages/server/test/support/fake-elevenlabs.ts";
import { startFakeSpeech, synthesizeTones } from "../../packages/server/test/support/fake-speech.ts";
import {
  bareCartesia,
  bareDeepgram,
  bareElevenLabs,
} from "../../packages/server/test/support/provider-bare.ts";
import { SESSION_SETTINGS } from "../../packages/server/test/support/session-settings.ts";

const FRAME = 160;
/** The reply stand-in's answer: one sentence, so the first audio is that sentence's. */
const ANSWER = "Sure. ";
const WARM_UP_TURNS = 5;
/**
 * Silence frames sent at once after the speech; the rest (up to the end of turn, 750 ms of silence
 * by default, and on until the answer) go on a 20 ms clock, as a carrier sends them, so that the frame
 * completing the turn is sent alone and nothing else of the caller's is in flight while it is answered.
 */
const SILENCE_AT_ONCE = 30;

/** The caller's speech in whole frames (a carrier sends no partial frame; frames are counted by bytes). */
const callerSpeech = (() => {
  const tones = synthesizeTones("hello there", 8000);
  const pcm = new Int16Array(Math.ceil(tones.length / FRAME) * FRAME);
  pcm.set(tones);
  return pcmToMuLaw(pcm);
})();
const silence = pcmToMuLaw(new Int16Array(FRAME));
const speechFrames: Uint8Array[] = [];
for (let offset = 0; offset < callerSpeech.length; offset += FRAME)
  speechFrames.push(callerSpeech.subarray(offset, offset + FRAME));
const yieldIo = () => new Promise((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * One caller turn, sent through `send`: the speech, silence at once, then silence every 20 ms until
 * `answered`, then 200 ms of silence at once (the answer plays; the providers see the gap).
 */
async function callerTurn(send: (frame: Uint8Array) => void, answered: () => boolean) {
  for (const frame of speechFrames) {
    send(frame);
    await yieldIo();
  }
  for (let i = 0; i < SILENCE_AT_ONCE; i++) {
    send(silence);
    await yieldIo();
  }
  const start = performance.now();
  for (let tick = 1; !answered(); tick++) {
    send(silence);
    // A drift-free clock: each frame at its due time (the frame completing the turn is one of them).
    const wait = start + tick * 20 - performance.now();
    while (!answered() && performance.now() < start + tick * 20) await sleep(Math.min(1, Math.max(0, wait)));
  }
  for (let i = 0; i < 10; i++) {
    send(silence);
    await yieldIo();
  }
}

class MemoryStream implements MediaStream {
  readonly streamId = "bench-providers";
  readonly callId = 1;
  readonly format = PHONE_FORMAT;
  private audio?: (frame: Uint8Array) => void;
  private mark?: (name: string) => void;
  private closed?: () => void;
  firstAudioAt: number | null = null;
  onAudio(listener: (frame: Uint8Array) => void) {
    this.audio = listener;
  }
  onMark(listener: (name: string) => void) {
    this.mark = listener;
  }
  onDtmf() {}
  onClose(listener: () => void) {
    this.closed = listener;
  }
  sendAudio() {
    this.firstAudioAt ??= performance.now();
  }
  sendMark(name: string) {
    // Played at once: the bench is about the engine, not the caller's ear.
    queueMicrotask(() => this.mark?.(name));
  }
  clearAudio() {}
  close() {}
  push(frame: Uint8Array) {
    this.audio?.(frame);
  }
  /** The caller hangs up. */
  hangUp() {
    this.closed?.();
  }
}

/**
 * Which caller frame completed the fake's latest utterance on the stream it opens next: the audio it
 * had received (that frame included) when it ended the utterance, in bytes.
 */
async function nextStreamFinals(deepgram: FakeDeepgram, opening: () => unknown): Promise<() => number> {
  const before = deepgram.streams.length;
  const opened = opening();
  while (deepgram.streams.length === before) await sleep(1);
  await opened;
  const stream = deepgram.streams[before]!;
  let completed = 0;
  const finals = stream.finals;
  finals.push = (...texts: string[]) => {
    completed = stream.audioBytes;
    return Array.prototype.push.apply(finals, texts);
  };
  return () => completed;
}

/**
 * `turns` caller turns through a pipeline session on `ports` (given how many caller frames were sent
 * so far): per turn, from sending the caller frame that completed the turn (`completing()`, a frame
 * index, known once answered) to the first audio frame the session sends back; `between` runs after
 * each measured turn (the bare clients' samples).
 */
async function sessionTurns(options: {
  ports: (framesSent: () => number) => PipelinePorts;
  turns: number;
  /** Starts the session (`start`) and gives the index of the frame that completed the latest turn. */
  started: (start: () => void) => Promise<() => number>;
  between: () => Promise<void>;
}): Promise<number[]> {
  const stream = new MemoryStream();
  const sentAt: number[] = [];
  const session = new PipelineSession(
    stream,
    SESSION_SETTINGS,
    options.ports(() => sentAt.length),
  );
  const completingFrame = await options.started(() => session.start());
  const send = (frame: Uint8Array) => {
    sentAt.push(performance.now());
    stream.push(frame);
  };
  const times: number[] = [];
  for (let turn = 0; turn < WARM_UP_TURNS + options.turns; turn++) {
    stream.firstAudioAt = null;
    await callerTurn(send, () => stream.firstAudioAt !== null);
    if (turn < WARM_UP_TURNS) continue;
    times.push(stream.firstAudioAt! - sentAt[completingFrame()]!);
    await options.between();
  }
  stream.hangUp();
  return times;
}

const basePorts = {
  logger: createLogger("silent"),
  reply: async (_history: unknown, onDelta: (text: string) => void) => {
    onDelta(ANSWER);
    return { text: ANSWER.trim(), endCall: false };
  },
  turn: async () => {},
  hangUp: async () => {},
  callerLeft: async () => {},
};

export interface ProviderRow {
  name: string;
  /** Caller's completing frame → first audio frame out, through the session and the production clients. */
  engine: number[];
  /** The fakes' own time, from bare clients: one list per provider call in the turn. */
  fakes: { name: string; times: number[] }[];
}

/**
 * Batch (OpenAI-compatible HTTP: the caller's turn as a WAV, then the sentence's speech) and streaming
 * (Deepgram live, then ElevenLabs or Cartesia over WebSockets) through the production clients against
 * the local fakes, one after the other, each with its fakes' own time from bare clients.
 */
export async function providerLatency(turns: number): Promise<ProviderRow[]> {
  const [speech, deepgram, cartesia, elevenlabs] = await Promise.all([
    startFakeSpeech(),
    startFakeDeepgram(),
    startFakeCartesia(),
    startFakeElevenLabs(),
  ]);
  const config = {
    transcribeModel: "bench",
    ttsModel: "bench",
    stt: { baseUrl: speech.baseUrl, apiKey: "bench" },
    tts: { baseUrl: speech.baseUrl, apiKey: "bench" },
    timeoutSeconds: 10,
  } as VoiceConfig;
  const transcriber = new OpenAiTranscriber(config);
  const synthesizer = new OpenAiSynthesizer(config);
  const batchPorts = {
    ...basePorts,
    transcribe: (wav: Buffer, signal: AbortSignal) => transcriber.transcribe(wav, { language: null, signal }),
    synthesize: async (text: string, signal: AbortSignal) => ({
      sampleRate: synthesizer.outputFormat.sampleRate,
      audio: await synthesizer.synthesize(text, { voice: "alloy", speed: 1, signal }),
    }),
  };
  const endpointingMs = endpointMs(SESSION_SETTINGS.endpointSensitivity);
  const deepgramClient = new DeepgramTranscriber({
    url: deepgram.url,
    apiKey: "bench",
    model: "bench",
    timeoutSeconds: 10,
    keepAliveMs: 5000,
  });
  const rows: ProviderRow[] = [];

  // Batch: our detector ends the turn on a caller frame, and the turn's WAV is posted on that frame.
  let transcribedAt = -1;
  const turnWav = wavFile(new Int16Array(8000 * 1.5), 8000);
  const bareTranscriptions: number[] = [];
  const bareSpeech: number[] = [];
  const batch = await sessionTurns({
    ports: (framesSent) => ({
      ...batchPorts,
      transcribe: (wav, signal) => {
        transcribedAt = framesSent() - 1;
        return batchPorts.transcribe(wav, signal);
      },
    }),
    turns,
    started: async (start) => {
      start();
      return () => transcribedAt;
    },
    between: async () => {
      const form = new FormData();
      form.set("model", "bench");
      form.set("response_format", "json");
      form.set("file", new Blob([new Uint8Array(turnWav)], { type: "audio/wav" }), "turn.wav");
      let started = performance.now();
      const transcription = await fetch(`${speech.baseUrl}/audio/transcriptions`, {
        method: "POST",
        headers: { authorization: "Bearer bench" },
        body: form,
      });
      await transcription.json();
      bareTranscriptions.push(performance.now() - started);
      started = performance.now();
      const response = await fetch(`${speech.baseUrl}/audio/speech`, {
        method: "POST",
        headers: { authorization: "Bearer bench", "content-type": "application/json" },
        body: JSON.stringify({
          model: "bench",
          input: ANSWER.trim(),
          voice: "alloy",
          response_format: "pcm",
          speed: 1,
        }),
      });
      const reader = response.body!.getReader();
      await reader.read();
      bareSpeech.push(performance.now() - started);
      await reader.cancel();
    },
  });
  rows.push({
    name: "batch (OpenAI-compatible HTTP transcription + speech)",
    engine: batch,
    fakes: [
      { name: "transcription POST → JSON", times: bareTranscriptions },
      { name: "speech POST → first chunk", times: bareSpeech },
    ],
  });

  // Streaming: the provider ends the turn (its endpointing, the same 750 ms) on a caller frame.
  const query = new URLSearchParams({
    encoding: "mulaw",
    sample_rate: "8000",
    channels: "1",
    model: "bench",
    interim_results: "true",
    endpointing: String(endpointingMs),
    utterance_end_ms: "1000",
  });
  const providers: [StreamingSynthesizer, () => ReturnType<typeof bareCartesia>][] = [
    [
      new CartesiaSynthesizer({
        baseUrl: cartesia.baseUrl,
        apiKey: cartesia.apiKey,
        model: "bench",
        version: "bench",
      }),
      () => bareCartesia(cartesia.baseUrl, cartesia.apiKey, ANSWER),
    ],
    [
      new ElevenLabsSynthesizer({ baseUrl: elevenlabs.baseUrl, apiKey: elevenlabs.apiKey, model: "bench" }),
      () => bareElevenLabs(elevenlabs.baseUrl, elevenlabs.apiKey, ANSWER),
    ],
  ];
  for (const [tts, openBare] of providers) {
    let stt: Awaited<ReturnType<typeof bareDeepgram>> | null = null;
    const sttCompleted = await nextStreamFinals(deepgram, async () => {
      stt = await bareDeepgram(deepgram.url, query);
    });
    const bareStt = stt! as Awaited<ReturnType<typeof bareDeepgram>>;
    const bareTts = await openBare();
    const sttTimes: number[] = [];
    const ttsTimes: number[] = [];
    // The bare socket's first turns are warm-up too.
    for (let turn = 0; turn < WARM_UP_TURNS; turn++) await bareStt.sample(callerTurn, sttCompleted);
    // As a call does: one provider socket for the session, opened as it starts, a context per answer.
    const connections: SpeechConnection[] = [];
    const engine = await sessionTurns({
      ports: () => {
        const connection = tts.connect({ voice: "bench", speed: 1, format: PHONE_FORMAT });
        connection.warm();
        connections.push(connection);
        return {
          ...batchPorts,
          openTranscription: (events) =>
            deepgramClient.open({ format: PHONE_FORMAT, language: null, endpointingMs }, events),
          openSpeech: async (signal) => ({
            format: connection.outputFormat,
            stream: await connection.open(signal),
          }),
        };
      },
      turns,
      started: async (start) => {
        const completedBytes = await nextStreamFinals(deepgram, start);
        return () => completedBytes() / FRAME - 1;
      },
      between: async () => {
        sttTimes.push(await bareStt.sample(callerTurn, sttCompleted));
        ttsTimes.push(await bareTts.sample());
      },
    });
    for (const connection of connections) connection.close();
    bareStt.close();
    bareTts.close();
    rows.push({
      name: `streaming (Deepgram live + ${tts.name})`,
      engine,
      fakes: [
        { name: "Deepgram: completing frame → final result", times: sttTimes },
        { name: `${tts.name}: text → first audio (open socket)`, times: ttsTimes },
      ],
    });
  }
  await Promise.all([speech.close(), deepgram.close(), cartesia.close(), elevenlabs.close()]);
  return rows;
}
