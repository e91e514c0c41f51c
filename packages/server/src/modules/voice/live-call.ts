import type { Prisma, PrismaClient } from "../../generated/prisma/client.ts";
import { replyAssistantColumns } from "../message-pipeline/index.ts";
import type { DetectorRegistry } from "./detectors.ts";
import type { SessionSettings } from "./session-ports.ts";

/** What a live call's session reads of the call and its assistant. */
export const LIVE_CALL_COLUMNS = {
  id: true,
  accountId: true,
  assistantId: true,
  status: true,
  variables: true,
  type: true,
  assistantPhoneNumber: true,
  clientPhoneNumber: true,
  test: true,
  assistant: {
    select: {
      id: true,
      ...replyAssistantColumns,
      mode: true,
      language: true,
      waitForCustomer: true,
      allowInterruptions: true,
      interruptSensitivity: true,
      minInterruptWords: true,
      endpointType: true,
      endpointSensitivity: true,
      maxSilenceDuration: true,
      reengagementInterval: true,
      speechSpeed: true,
      fillers: true,
      fillerConfig: true,
      ambientSound: true,
      ambientSoundVolume: true,
      transcriberProviderId: true,
      synthesizerProviderId: true,
      multimodalModelId: true,
      voice: { select: { providerVoiceId: true, provider: true } },
    },
  },
} satisfies Prisma.CallSelect;

export type LiveCall = Prisma.CallGetPayload<{ select: typeof LIVE_CALL_COLUMNS }>;
export type LiveAssistant = NonNullable<LiveCall["assistant"]>;

/** The call as its session reads it, or null when there is none. */
export function findLiveCall(prisma: PrismaClient, callId: number): Promise<LiveCall | null> {
  return prisma.call.findUnique({ where: { id: callId }, select: LIVE_CALL_COLUMNS });
}

/** The account's assistant as a session reads it, or null when it is gone (deleted, or not the account's). */
export function findLiveAssistant(
  prisma: PrismaClient,
  accountId: number,
  assistantId: number,
): Promise<LiveAssistant | null> {
  return prisma.assistant.findFirst({
    where: { id: assistantId, accountId, deletedAt: null },
    select: LIVE_CALL_COLUMNS.assistant.select,
  });
}

/** Catalogue voices of these providers speak through their streaming synthesizer (streaming-speech.ts). */
export const STREAMING_PROVIDERS = new Set(["elevenlabs", "cartesia"]);

/** A catalogue voice without a provider voice speaks with this one. */
const DEFAULT_PROVIDER_VOICE = "alloy";

/** Said while a function runs when `fillers` is on and `filler_config` has no neutral phrase. */
const DEFAULT_FILLER = "One moment, please.";

/**
 * What a session of `assistant` uses of its settings; `pipeline`: the call runs in pipeline mode.
 * End of turn is the detector `detectors` has for its `endpoint_type`.
 */
export function sessionSettingsOf(
  assistant: LiveAssistant,
  pipeline: boolean,
  detectors: DetectorRegistry,
): SessionSettings {
  const endpoint = detectors.for(assistant.endpointType);
  return {
    initialMessage: assistant.initialMessage,
    waitForCustomer: assistant.waitForCustomer,
    allowInterruptions: assistant.allowInterruptions,
    interruptSensitivity: assistant.interruptSensitivity,
    minInterruptWords: assistant.minInterruptWords,
    endpointSensitivity: assistant.endpointSensitivity,
    // Realtime modes leave the end of turn to the model (semantic_vad).
    semanticEndOfTurn: pipeline && endpoint.semantic,
    turnDetector: endpoint.turnDetector,
    maxSilenceDuration: assistant.maxSilenceDuration,
    reengagementInterval: assistant.reengagementInterval,
    language: assistant.language,
    // A streaming provider's voice is not one `/audio/speech` knows: its fallback speaks with the default.
    voice:
      (STREAMING_PROVIDERS.has(assistant.voice?.provider ?? "") ? null : assistant.voice?.providerVoiceId) ||
      DEFAULT_PROVIDER_VOICE,
    speechSpeed: Number(assistant.speechSpeed.toString()),
    fillers: assistant.fillers > 0 ? fillerPhrases(assistant.fillerConfig) : [],
  };
}

/** `filler_config`'s neutral phrases (any phrase suits a wait of unknown outcome), or a default. */
function fillerPhrases(config: unknown): string[] {
  const neutral = (config as { neutral?: unknown } | null)?.neutral;
  const phrases = Array.isArray(neutral)
    ? neutral.filter((phrase): phrase is string => typeof phrase === "string" && phrase.trim() !== "")
    : [];
  return phrases.length > 0 ? phrases.map((phrase) => phrase.trim()) : [DEFAULT_FILLER];
}
