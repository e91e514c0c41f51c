// The media plane (modules/voice): speech-to-text, text-to-speech and realtime speech providers, and what one
// instance's relay carries.
import { z } from "zod";
import type { ModelsEnv } from "./models.ts";
import {
  asWebSocketUrl,
  emptyAsUndefined,
  flag,
  httpOrWsUrl,
  httpUrl,
  positiveInt,
  withoutTrailingSlash,
} from "./validators.ts";

/** Where OpenAI's own API lives, for speech when no other base URL is configured. */
const OPENAI_API_BASE = "https://api.openai.com/v1";
const DEEPGRAM_API_BASE = "wss://api.deepgram.com/v1";

export const voiceEnv = z.object({
  OPENAI_TRANSCRIBE_MODEL: z.string().min(1).default("gpt-4o-mini-transcribe"),
  OPENAI_TTS_MODEL: z.string().min(1).default("gpt-4o-mini-tts"),
  OPENAI_STT_BASE_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
  OPENAI_STT_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  OPENAI_TTS_BASE_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
  OPENAI_TTS_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  OPENAI_REALTIME_MODEL: z.string().min(1).default("gpt-realtime"),
  OPENAI_REALTIME_BASE_URL: z.preprocess(emptyAsUndefined, httpOrWsUrl.optional()),
  OPENAI_REALTIME_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  OPENAI_REALTIME_DIALECT: z.enum(["ga", "beta"]).default("ga"),
  VOXGATE_MAX_LIVE_MEDIA_SESSIONS: positiveInt.max(100_000, "must be at most 100000").default(100),
  VOXGATE_RELAY_THREAD_SLICE_US: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .refine((value) => value === 0 || (value >= 100 && value <= 100_000), "must be 0 (off) or 100 to 100000")
    .default(100),
  VOXGATE_SILERO_WORKER_BACKGROUND: flag("false"),
  VOXGATE_STT_PROVIDER: z.enum(["openai", "deepgram", "openai-realtime"]).default("openai"),
  VOXGATE_DEEPGRAM_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  VOXGATE_DEEPGRAM_URL: z.preprocess(emptyAsUndefined, httpOrWsUrl.default(DEEPGRAM_API_BASE)),
  VOXGATE_DEEPGRAM_MODEL: z.string().min(1).default("nova-3"),
  VOXGATE_TTS_PROVIDER: z.enum(["openai", "elevenlabs", "cartesia"]).default("openai"),
  ELEVENLABS_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  ELEVENLABS_BASE_URL: z.preprocess(emptyAsUndefined, httpOrWsUrl.default("wss://api.elevenlabs.io")),
  ELEVENLABS_MODEL: z.string().min(1).default("eleven_flash_v2_5"),
  ELEVENLABS_VOICE_ID: z.preprocess(emptyAsUndefined, z.string().optional()),
  CARTESIA_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  CARTESIA_BASE_URL: z.preprocess(emptyAsUndefined, httpOrWsUrl.default("wss://api.cartesia.ai")),
  CARTESIA_MODEL: z.string().min(1).default("sonic-2"),
  CARTESIA_VERSION: z.string().min(1).default("2024-11-13"),
  CARTESIA_VOICE_ID: z.preprocess(emptyAsUndefined, z.string().optional()),
});

type VoiceEnv = z.output<typeof voiceEnv>;

export function checkVoiceEnv(env: VoiceEnv, context: z.RefinementCtx): void {
  // Deepgram's own service wants a key; a self-hosted one (another URL) may not.
  if (
    env.VOXGATE_STT_PROVIDER === "deepgram" &&
    !env.VOXGATE_DEEPGRAM_API_KEY &&
    env.VOXGATE_DEEPGRAM_URL === DEEPGRAM_API_BASE
  ) {
    context.addIssue({
      code: "custom",
      path: ["VOXGATE_DEEPGRAM_API_KEY"],
      message: "is required when VOXGATE_STT_PROVIDER=deepgram (unless VOXGATE_DEEPGRAM_URL is set)",
    });
  }
  // A streaming voice speaks with its key, and with a voice of its own for assistants whose voice is not its.
  if (env.VOXGATE_TTS_PROVIDER !== "openai") {
    const prefix = env.VOXGATE_TTS_PROVIDER === "elevenlabs" ? "ELEVENLABS" : "CARTESIA";
    for (const name of [`${prefix}_API_KEY`, `${prefix}_VOICE_ID`] as const) {
      if (!env[name])
        context.addIssue({
          code: "custom",
          path: [name],
          message: `is required when VOXGATE_TTS_PROVIDER=${env.VOXGATE_TTS_PROVIDER}`,
        });
    }
  }
}

/** The media plane (modules/voice): speech endpoints and how many live calls one instance carries. */
export interface VoiceConfig {
  transcribeModel: string;
  ttsModel: string;
  /** `/audio/transcriptions` under this base (…/v1); defaults to OPENAI_BASE_URL and OPENAI_API_KEY. */
  stt: { baseUrl: string; apiKey: string | undefined };
  /** `/audio/speech` under this base; defaults to OPENAI_BASE_URL and OPENAI_API_KEY. */
  tts: { baseUrl: string; apiKey: string | undefined };
  timeoutSeconds: number;
  /**
   * The speech-to-speech model of multimodal and dualplex calls (OpenAI Realtime protocol over a
   * WebSocket at `{baseUrl}/realtime?model=…`); `dialect` picks the GA event and session shapes or the
   * beta ones that many self-hosted servers still speak.
   */
  realtime: { baseUrl: string; apiKey: string | undefined; model: string; dialect: "ga" | "beta" };
  /**
   * Streaming text-to-speech (WebSocket input streaming): `provider` speaks pipeline answers unless an
   * assistant's catalogue voice names another configured one; `openai` is the batch `/audio/speech`.
   * A provider is configured when it has a key; `voiceId` speaks for voices of another provider.
   */
  streamingTts: {
    provider: "openai" | "elevenlabs" | "cartesia";
    elevenlabs: { baseUrl: string; apiKey: string; model: string; voiceId: string | undefined } | null;
    cartesia: {
      baseUrl: string;
      apiKey: string;
      model: string;
      version: string;
      voiceId: string | undefined;
    } | null;
  };
  /** Calls whose audio this instance relays at once; past it a call is refused with a spoken message. */
  maxLiveSessions: number;
  /**
   * The scheduling slice (µs) the server asks Linux for its main thread, which relays every call's
   * frames: short, so a frame preempts Silero's worker and other threads at once (modules/media/thread-slice.ts).
   * 0 leaves the kernel's default.
   */
  relayThreadSliceUs: number;
  /**
   * Silero's worker thread runs in the background of the relay's (SCHED_BATCH, a 10 ms slice: it takes
   * the core from no one when it wakes; modules/voice/silero-worker.ts). Off by default: on a busy
   * machine such a thread falls behind (docs/voice.md).
   */
  sileroWorkerBackground: boolean;
  /**
   * Speech-to-text as the caller speaks (pipeline mode): Deepgram live or OpenAI realtime
   * transcription, with the batch endpoint (`stt`) as the fallback; `null`: batch only.
   */
  streamingStt: "deepgram" | "openai-realtime" | null;
  /** Deepgram live streaming: `{url}/listen` over a WebSocket. */
  deepgram: { url: string; apiKey: string | undefined; model: string };
  /**
   * Each streaming voice's endpoint, model and default voice whether or not the deployment has a key
   * for it: an account's own key reaches the provider with these (docs/voice.md#providers-and-models).
   */
  accountTts: {
    elevenlabs: { baseUrl: string; model: string; voiceId: string | undefined };
    cartesia: { baseUrl: string; model: string; version: string; voiceId: string | undefined };
  };
}

export interface VoiceSettings {
  voice: VoiceConfig;
}

/** Speech goes to OpenAI's endpoints (or OPENAI_BASE_URL's) with OPENAI_API_KEY unless its own are set. */
export function voiceSettings(
  env: VoiceEnv & Pick<ModelsEnv, "OPENAI_API_KEY" | "OPENAI_BASE_URL" | "OPENAI_TIMEOUT_SECONDS">,
): VoiceSettings {
  const openaiBase = (own: string | undefined) =>
    withoutTrailingSlash(own ?? env.OPENAI_BASE_URL ?? OPENAI_API_BASE);
  const elevenlabs = {
    baseUrl: asWebSocketUrl(env.ELEVENLABS_BASE_URL),
    model: env.ELEVENLABS_MODEL,
    voiceId: env.ELEVENLABS_VOICE_ID,
  };
  const cartesia = {
    baseUrl: asWebSocketUrl(env.CARTESIA_BASE_URL),
    model: env.CARTESIA_MODEL,
    version: env.CARTESIA_VERSION,
    voiceId: env.CARTESIA_VOICE_ID,
  };
  return {
    voice: {
      transcribeModel: env.OPENAI_TRANSCRIBE_MODEL,
      ttsModel: env.OPENAI_TTS_MODEL,
      stt: {
        baseUrl: openaiBase(env.OPENAI_STT_BASE_URL),
        apiKey: env.OPENAI_STT_API_KEY ?? env.OPENAI_API_KEY,
      },
      tts: {
        baseUrl: openaiBase(env.OPENAI_TTS_BASE_URL),
        apiKey: env.OPENAI_TTS_API_KEY ?? env.OPENAI_API_KEY,
      },
      timeoutSeconds: env.OPENAI_TIMEOUT_SECONDS,
      realtime: {
        baseUrl: asWebSocketUrl(env.OPENAI_REALTIME_BASE_URL ?? env.OPENAI_BASE_URL ?? OPENAI_API_BASE),
        apiKey: env.OPENAI_REALTIME_API_KEY ?? env.OPENAI_API_KEY,
        model: env.OPENAI_REALTIME_MODEL,
        dialect: env.OPENAI_REALTIME_DIALECT,
      },
      maxLiveSessions: env.VOXGATE_MAX_LIVE_MEDIA_SESSIONS,
      relayThreadSliceUs: env.VOXGATE_RELAY_THREAD_SLICE_US,
      sileroWorkerBackground: env.VOXGATE_SILERO_WORKER_BACKGROUND,
      streamingStt: env.VOXGATE_STT_PROVIDER === "openai" ? null : env.VOXGATE_STT_PROVIDER,
      deepgram: {
        url: asWebSocketUrl(env.VOXGATE_DEEPGRAM_URL),
        apiKey: env.VOXGATE_DEEPGRAM_API_KEY,
        model: env.VOXGATE_DEEPGRAM_MODEL,
      },
      streamingTts: {
        provider: env.VOXGATE_TTS_PROVIDER,
        elevenlabs: env.ELEVENLABS_API_KEY ? { ...elevenlabs, apiKey: env.ELEVENLABS_API_KEY } : null,
        cartesia: env.CARTESIA_API_KEY ? { ...cartesia, apiKey: env.CARTESIA_API_KEY } : null,
      },
      accountTts: { elevenlabs, cartesia },
    },
  };
}
