import type { VoiceConfig } from "../../env.ts";
import type { Logger } from "../../logger.ts";
import { RealtimeClient, type RealtimeModel } from "./realtime-client.ts";
import type { StreamingSynthesizer, StreamingTranscriber, Synthesizer, Transcriber } from "./speech.ts";
import { OpenAiSynthesizer, OpenAiTranscriber } from "./speech-client.ts";
import { streamingSynthesizers } from "./streaming-speech.ts";
import { streamingTranscriber } from "./streaming-stt.ts";

export type TranscriberName = "openai" | "deepgram" | "openai-realtime";
export type SynthesizerName = "openai" | "elevenlabs" | "cartesia";
/** The providers an account may hold its own key for. */
export type KeyProvider = "openai" | "deepgram" | "elevenlabs" | "cartesia";

/**
 * What a call's assistant selected from the catalogue, already checked to be usable (configured by
 * the deployment or by the account's own key): null keeps the deployment's choice.
 */
export interface ProviderChoice {
  transcriber: TranscriberName | null;
  synthesizer: SynthesizerName | null;
  /** The realtime model of multimodal and dualplex calls, by name. */
  realtimeModel: string | null;
  /** The account's own keys, used instead of the deployment's. */
  keys: Partial<Record<KeyProvider, string>>;
}

/** The catalogue's selection for a call (modules/providers implements it). */
export interface ProviderSelection {
  choiceFor(
    accountId: number,
    assistant: {
      transcriberProviderId: number | null;
      synthesizerProviderId: number | null;
      multimodalModelId: number | null;
    },
  ): Promise<ProviderChoice>;
}

/** The providers one call speaks and listens through. */
export interface CallProviders {
  transcriber: Transcriber;
  synthesizer: Synthesizer;
  realtime: RealtimeModel;
  /** Null: batch speech-to-text only. */
  streamingTranscriber: StreamingTranscriber | null;
  streamingSynthesizers: { synthesizer: StreamingSynthesizer; defaultVoice: string | undefined }[];
  /** The streaming voice of assistants whose catalogue voice is no configured streaming provider's. */
  ttsProvider: SynthesizerName;
}

/** The deployment's providers, built at the composition root from the environment. */
export function deploymentProviders(config: VoiceConfig, logger: Logger): CallProviders {
  return {
    transcriber: new OpenAiTranscriber(config),
    synthesizer: new OpenAiSynthesizer(config),
    realtime: new RealtimeClient(config.realtime, config.timeoutSeconds, logger),
    streamingTranscriber: streamingTranscriber(config),
    streamingSynthesizers: streamingSynthesizers(config),
    ttsProvider: config.streamingTts.provider,
  };
}

const isDefault = (choice: ProviderChoice) =>
  choice.transcriber === null &&
  choice.synthesizer === null &&
  choice.realtimeModel === null &&
  Object.keys(choice.keys).length === 0;

/**
 * A call's providers: the deployment's, or built for its choice. The clients only hold their
 * configuration (each call opens its own connections), so building them per call costs nothing
 * worth caching; the account's keys are cached by the catalogue.
 */
export function callProviders(
  config: VoiceConfig,
  logger: Logger,
  deployment: CallProviders,
  choice: ProviderChoice,
): CallProviders {
  if (isDefault(choice)) return deployment;
  const { keys } = choice;
  const openai = keys.openai;
  const adjusted: VoiceConfig = {
    ...config,
    stt: openai ? { ...config.stt, apiKey: openai } : config.stt,
    tts: openai ? { ...config.tts, apiKey: openai } : config.tts,
    realtime: {
      ...config.realtime,
      ...(openai ? { apiKey: openai } : {}),
      ...(choice.realtimeModel ? { model: choice.realtimeModel } : {}),
    },
    streamingStt:
      choice.transcriber === null
        ? config.streamingStt
        : choice.transcriber === "openai"
          ? null
          : choice.transcriber,
    deepgram: keys.deepgram ? { ...config.deepgram, apiKey: keys.deepgram } : config.deepgram,
    streamingTts: {
      provider: choice.synthesizer ?? config.streamingTts.provider,
      elevenlabs: keys.elevenlabs
        ? { ...config.accountTts.elevenlabs, apiKey: keys.elevenlabs }
        : config.streamingTts.elevenlabs,
      cartesia: keys.cartesia
        ? { ...config.accountTts.cartesia, apiKey: keys.cartesia }
        : config.streamingTts.cartesia,
    },
  };
  return {
    transcriber: openai ? new OpenAiTranscriber(adjusted) : deployment.transcriber,
    synthesizer: openai ? new OpenAiSynthesizer(adjusted) : deployment.synthesizer,
    realtime:
      openai || choice.realtimeModel
        ? new RealtimeClient(adjusted.realtime, adjusted.timeoutSeconds, logger)
        : deployment.realtime,
    streamingTranscriber: streamingTranscriber(adjusted),
    streamingSynthesizers: streamingSynthesizers(adjusted),
    ttsProvider: adjusted.streamingTts.provider,
  };
}
