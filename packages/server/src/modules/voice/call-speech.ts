import type { ServiceDeps } from "../../deps.ts";
import type { MediaStream } from "../media/index.ts";
import { type CallProviders, callProviders, type ProviderSelection } from "./call-providers.ts";
import type { LiveAssistant } from "./live-call.ts";
import type { RealtimeModel } from "./realtime-client.ts";
import type { PipelinePorts } from "./session-ports.ts";
import type {
  SpeechConnection,
  StreamingSynthesizer,
  StreamingTranscriber,
  Synthesizer,
  Transcriber,
} from "./speech.ts";

export /** A streaming voice's socket for the call, and what it speaks (a hand-off to the same voice keeps it). */
interface StreamingSpeech {
  synthesizer: StreamingSynthesizer;
  key: string;
  connection: SpeechConnection;
  openSpeech: NonNullable<PipelinePorts["openSpeech"]>;
}

/** The deployment's providers of a live call, which the assistant's selection and the account's keys may replace. */
export interface DeploymentProviders {
  /** Speech-to-text of the pipeline's caller turns. */
  transcriber: Transcriber;
  /** The speech-to-speech model of multimodal and dualplex calls. */
  realtime: RealtimeModel;
  /** The pipeline's voice. */
  synthesizer: Synthesizer;
  /** Speech-to-text as the caller speaks, when the deployment has one; `transcriber` is its fallback. */
  streamingTranscriber?: StreamingTranscriber | null;
  /**
   * Streaming voices configured for this deployment (ElevenLabs, Cartesia), with the voice each
   * speaks for assistants whose catalogue voice is another provider's; `synthesizer` takes over
   * when one fails.
   */
  streamingSynthesizers?: { synthesizer: StreamingSynthesizer; defaultVoice: string | undefined }[];
  /**
   * The assistant's catalogue selection and the account's own keys (modules/providers); without it
   * every call uses the providers above.
   */
  selection?: ProviderSelection;
}

/**
 * A live call's providers and streaming voice: what the assistant's catalogue selection and the
 * account's keys pick over the deployment's (docs/voice.md#providers-and-models), and the one
 * text-to-speech socket per voice a call speaks through.
 */
export class CallSpeech {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: DeploymentProviders,
  ) {}

  /** The deployment's providers, or those the assistant's selection and the account's keys pick. */
  async providersFor(accountId: number, assistant: LiveAssistant): Promise<CallProviders> {
    const { parts } = this;
    const deployment: CallProviders = {
      transcriber: parts.transcriber,
      synthesizer: parts.synthesizer,
      realtime: parts.realtime,
      streamingTranscriber: parts.streamingTranscriber ?? null,
      streamingSynthesizers: parts.streamingSynthesizers ?? [],
      ttsProvider: this.deps.config.voice.streamingTts.provider,
    };
    if (!parts.selection) return deployment;
    try {
      const choice = await parts.selection.choiceFor(accountId, assistant);
      return callProviders(this.deps.config.voice, this.deps.logger, deployment, choice);
    } catch (error) {
      // The call goes on with what the deployment configured rather than not at all.
      this.deps.logger.warn(
        "the assistant's provider selection could not be read; the deployment's is used",
        {
          accountId,
          error,
        },
      );
      return deployment;
    }
  }

  /**
   * The streaming voice of an assistant whose catalogue voice is `provider`'s: that provider's when it
   * is configured, else the call's (the assistant's synthesizer, else `VOXGATE_TTS_PROVIDER`), else
   * none (batch speech).
   */
  private streamingFor(providers: CallProviders, provider: string | undefined) {
    const configured = providers.streamingSynthesizers;
    return (
      configured.find((entry) => entry.synthesizer.name === provider) ??
      configured.find((entry) => entry.synthesizer.name === providers.ttsProvider)
    );
  }

  /** The streaming voice an assistant's answers speak with, if any (see `streamingFor`). */
  streamingVoice(
    providers: CallProviders,
    voice: { provider: string; providerVoiceId: string | null } | null,
    speed: number,
  ) {
    const entry = this.streamingFor(providers, voice?.provider);
    if (!entry) return null;
    const { synthesizer } = entry;
    const voiceId =
      (voice?.provider === synthesizer.name ? voice.providerVoiceId : null) ?? entry.defaultVoice;
    if (!voiceId) return null;
    return { synthesizer, voiceId, key: `${synthesizer.name}:${voiceId}:${speed}` };
  }

  /**
   * The call's streaming speech: one provider socket per voice (the call's, until a hand-off brings
   * another), asked for the stream's own format (8 kHz mu-law on phones, 16 kHz PCM in browsers),
   * opened at once so that the first answer does not wait for the handshake, and closed with the
   * stream. Each answer is a context on it.
   */
  streamingSpeech(
    providers: CallProviders,
    voice: { provider: string; providerVoiceId: string | null } | null,
    speed: number,
    stream: MediaStream,
  ): StreamingSpeech | null {
    const chosen = this.streamingVoice(providers, voice, speed);
    return chosen ? this.connectSpeech(chosen, speed, stream) : null;
  }

  connectSpeech(
    chosen: { synthesizer: StreamingSynthesizer; voiceId: string; key: string },
    speed: number,
    stream: MediaStream,
  ): StreamingSpeech {
    const connection = chosen.synthesizer.connect({ voice: chosen.voiceId, speed, format: stream.format });
    stream.onClose(() => connection.close());
    connection.warm();
    return {
      synthesizer: chosen.synthesizer,
      key: chosen.key,
      connection,
      openSpeech: async (signal) => ({
        format: connection.outputFormat,
        stream: await connection.open(signal),
      }),
    };
  }
}
