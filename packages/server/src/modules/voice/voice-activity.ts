import { type MediaFormat, phoneBandLevel } from "../media/index.ts";

/** Caller audio louder than this (RMS of 16-bit samples, about -36 dBFS) counts as voice. */
export const VOICE_LEVEL = 500;

/**
 * Says, frame by frame, whether one stream's caller is speaking. One instance per stream: a
 * detector may keep state across frames (Silero's recurrent state), so it is never shared.
 */
export interface VoiceActivityDetector {
  /** One 20 ms frame in the stream's format: whether it is voice. */
  voiced(frame: Uint8Array): boolean;
}

/** Makes the detector of one stream. */
export type VoiceActivityFactory = (format: MediaFormat) => VoiceActivityDetector;

/**
 * Energy in the phone band (300-3400 Hz) above a fixed level: cheap and stateless, but it hears
 * any loud enough sound (a cough, a door, a noisy room) as voice.
 */
export class EnergyDetector implements VoiceActivityDetector {
  constructor(private readonly format: MediaFormat) {}

  voiced(frame: Uint8Array): boolean {
    return phoneBandLevel(this.format, frame) >= VOICE_LEVEL;
  }
}

export const energyDetector: VoiceActivityFactory = (format) => new EnergyDetector(format);
