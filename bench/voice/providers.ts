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
import type { StreamingSynthesizer } from "../../packages/server/src/modules/voice/speech.ts";
import {
  OpenAiSynthesizer,
  OpenAiTranscriber,
} from "../../packages/server/src/modules/voice/speech-client.ts";
import {
  CartesiaSynthesizer,
  ElevenLabsSynthesizer,
} from "../../packages/server/src/modules/voice/streaming-speech.ts";
import { endpointMs } from "../../packages/server/src/modules/voice/turn-detector.ts";
import {
  type PipelinePorts,
  PipelineSession,
} from "../../packages/server/src/modules/voice/voice-session.ts";
import { startFakeCartesia } from "../../packages/server/test/support/fake-cartesia.ts";
import { type FakeDeepgram, startFakeDeepgram } from "../../packages/server/test/support/fake-deepgram.ts";
import { startFakeElevenLabs } from "../../packages/server/test/support/fake-elevenlabs.ts";
import { startFakeSpeech, synthesizeTones } from "../../packages/server/test/support/fake-speech.ts";
import {
  bareCartesiaFirstChunks,
  bareDeepgramFinals,
  bareElevenLabsFirstAudio,
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
 * Calls `onFinal(bytes)` with the audio the fake had received (the completing frame included) each
 * time it ends an utterance on its newest stream: which caller frame completed the turn.
 */
function watchFinals(deepgram: FakeDeepgram, onFinal: (bytes: number) => void) {
  const stream = deepgram.streams.at(-1)!;
  const finals = stream.finals;
  finals.push = (...texts: string[]) => {
    onFinal(stream.audioBytes);
    return Array.prototype.push.apply(finals, texts);
  };
}

/**
 * `turns` caller turns through a pipeline session on `ports` (given how many caller frames were sent
 * so far): per turn, from sending the caller frame that completed the turn (`completing()`, a frame
 * index, known once answered) to the first audio frame the session sends back.
 */
async function sessionTurns(
  ports: (framesSent: () => number) => PipelinePorts,
  turns: number,
  started: () => Promise<void>,
  completing: () => number,
): Promise<number[]> {
  const stream = new MemoryStream();
  const sentAt: number[] = [];
  new PipelineSession(
    stream,
    SESSION_SETTINGS,
    ports(() => sentAt.length),
  ).start();
  await started();
  const send = (frame: Uint8Array) => {
    sentAt.push(performance.now());
    stream.push(frame);
  };
  const times: number[] = [];
  for (let turn = 0; turn < WARM_UP_TURNS + turns; turn++) {
    stream.firstAudioAt = null;
    await callerTurn(send, () => stream.firstAudioAt !== null);
    if (turn >= WARM_UP_TURNS) times.push(stream.firstAudioAt! - sentAt[completing()]!);
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

async function timed(count: number, sample: () => Promise<void>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    await sample();
    times.push(performance.now() - started);
  }
  return times;
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
  const batch = await sessionTurns(
    (framesSent) => ({
      ...batchPorts,
      transcribe: (wav, signal) => {
        transcribedAt = framesSent() - 1;
        return batchPorts.transcribe(wav, signal);
      },
    }),
    turns,
    async () => {},
    () => transcribedAt,
  );
  const turnWav = wavFile(new Int16Array(8000 * 1.5), 8000);
  const bareTranscriptions = await timed(turns, async () => {
    const form = new FormData();
    form.set("model", "bench");
    form.set("response_format", "json");
    form.set("file", new Blob([new Uint8Array(turnWav)], { type: "audio/wav" }), "turn.wav");
    const response = await fetch(`${speech.baseUrl}/audio/transcriptions`, {
      method: "POST",
      headers: { authorization: "Bearer bench" },
      body: form,
    });
    await response.json();
  });
  const bareSpeech = await timed(turns, async () => {
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
    await reader.cancel();
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
  let completedBytes = 0;
  const following = async () => {
    const before = deepgram.streams.length;
    while (deepgram.streams.length === before) await sleep(1);
    watchFinals(deepgram, (bytes) => {
      completedBytes = bytes;
    });
  };
  const bareFinals = await (async () => {
    const run = bareDeepgramFinals(
      deepgram.url,
      query,
      WARM_UP_TURNS + turns,
      callerTurn,
      () => completedBytes,
    );
    await following();
    return (await run).slice(WARM_UP_TURNS);
  })();
  const providers: [StreamingSynthesizer, () => Promise<number[]>][] = [
    [
      new CartesiaSynthesizer({
        baseUrl: cartesia.baseUrl,
        apiKey: cartesia.apiKey,
        model: "bench",
        version: "bench",
      }),
      () => bareCartesiaFirstChunks(cartesia.baseUrl, cartesia.apiKey, ANSWER, turns),
    ],
    [
      new ElevenLabsSynthesizer({ baseUrl: elevenlabs.baseUrl, apiKey: elevenlabs.apiKey, model: "bench" }),
      () => bareElevenLabsFirstAudio(elevenlabs.baseUrl, elevenlabs.apiKey, ANSWER, turns),
    ],
  ];
  for (const [tts, bare] of providers) {
    const engine = await sessionTurns(
      () => ({
        ...batchPorts,
        openTranscription: (events) =>
          deepgramClient.open({ format: PHONE_FORMAT, language: null, endpointingMs }, events),
        openSpeech: async (signal) => ({
          sampleRate: tts.outputFormat.sampleRate,
          stream: await tts.open({ voice: "bench", speed: 1, signal }),
        }),
      }),
      turns,
      following,
      () => completedBytes / FRAME - 1,
    );
    rows.push({
      name: `streaming (Deepgram live + ${tts.name})`,
      engine,
      fakes: [
        { name: "Deepgram: completing frame → final result", times: bareFinals },
        { name: `${tts.name}: text → first audio (open socket)`, times: await bare() },
      ],
    });
  }
  await Promise.all([speech.close(), deepgram.close(), cartesia.close(), elevenlabs.close()]);
  return rows;
}
