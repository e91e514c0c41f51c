import { sileroDetector } from "./silero-vad.ts";
import { energyDetector, type VoiceActivityFactory } from "./voice-activity.ts";

/**
 * The voice activity detector each `endpoint_type` uses in pipeline mode: `silero` the learned one,
 * the others (`vad`, and `semantic`, whose silences still need voice detection) the energy one.
 */
export function voiceActivityFor(endpointType: string): VoiceActivityFactory {
  return endpointType === "silero" ? sileroDetector : energyDetector;
}
