import type { VoiceConfig } from "../../env.ts";
import { DeepgramTranscriber } from "./deepgram-transcriber.ts";
import { OpenAiRealtimeTranscriber } from "./openai-realtime-transcriber.ts";
import type { StreamingTranscriber } from "./speech.ts";

/** Deepgram closes a stream after 10 s without audio; half of it leaves room for a slow network. */
const DEEPGRAM_KEEP_ALIVE_MS = 5000;

/** The deployment's streaming speech-to-text (VOXGATE_STT_PROVIDER), or null for batch only. */
export function streamingTranscriber(config: VoiceConfig): StreamingTranscriber | null {
  switch (config.streamingStt) {
    case "deepgram":
      return new DeepgramTranscriber({
        ...config.deepgram,
        timeoutSeconds: config.timeoutSeconds,
        keepAliveMs: DEEPGRAM_KEEP_ALIVE_MS,
      });
    case "openai-realtime":
      return new OpenAiRealtimeTranscriber({
        baseUrl: config.realtime.baseUrl,
        apiKey: config.realtime.apiKey,
        dialect: config.realtime.dialect,
        model: config.transcribeModel,
        timeoutSeconds: config.timeoutSeconds,
      });
    default:
      return null;
  }
}
