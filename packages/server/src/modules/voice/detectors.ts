import type { MediaFormat } from "../media/index.ts";
import { semanticWaits } from "./semantic-turn.ts";
import { endpointMs, SilenceTurnDetector, type TurnDetector } from "./turn-detector.ts";
import { energyDetector, type VoiceActivityFactory } from "./voice-activity.ts";

/** What one stream's turn detector is made from. */
export interface TurnDetectorOptions {
  /** The stream's audio format. */
  format: MediaFormat;
  /** Silence after voice that ends the caller's turn, in ms of media (from `endpoint_sensitivity`). */
  endOfTurnMs: number;
  /** Whether the session reads the caller's turns as audio (see `SilenceTurnDetector`). */
  keepsAudio: boolean;
}

/** Makes the turn detector of one stream (detectors keep state, so never shared). */
export type TurnDetectorFactory = (options: TurnDetectorOptions) => TurnDetector;

/** How an `endpoint_type` ends the caller's turn in pipeline mode. */
export interface EndpointDetection {
  /** The stream's turn detector (and through it its voice activity detector). */
  turnDetector: TurnDetectorFactory;
  /**
   * The end of turn also reads the transcript (semantic-turn.ts): the detector's silence is the
   * shorter `settled` wait, and a turn that reads as unfinished waits for more.
   */
  semantic: boolean;
}

/** A turn detector deciding on silence after `activity`'s voice. */
export function silenceEndpoint(activity: VoiceActivityFactory, semantic = false): EndpointDetection {
  return {
    semantic,
    turnDetector: ({ format, endOfTurnMs, keepsAudio }) =>
      new SilenceTurnDetector(endOfTurnMs, format, keepsAudio, activity(format)),
  };
}

/** The energy detector's end of turn: what a session uses when it is given none. */
export const DEFAULT_ENDPOINT = silenceEndpoint(energyDetector);

/** The silence that ends a turn for `endpoint_sensitivity` (the `settled` wait when the end of turn is semantic). */
export function endOfTurnMs(sensitivity: number, semantic: boolean): number {
  return semantic ? semanticWaits(sensitivity).settled : endpointMs(sensitivity);
}

/**
 * The end-of-turn detection of each `endpoint_type`, built at the composition root (src/services.ts):
 * a new detector is one entry there. An unknown type (a value stored before its detector was
 * removed) gets `fallback`'s.
 */
export class DetectorRegistry {
  constructor(
    private readonly entries: Readonly<Record<string, EndpointDetection>>,
    private readonly fallback: string,
  ) {
    if (!entries[fallback]) throw new Error(`The detector registry has no fallback entry ${fallback}.`);
  }

  for(endpointType: string): EndpointDetection {
    return this.entries[endpointType] ?? this.entries[this.fallback]!;
  }
}
