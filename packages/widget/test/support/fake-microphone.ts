import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { wavFile } from "../../../server/src/modules/media/codec.ts";
import { type EspeakSpeech, espeak, espeakMissing } from "../../../server/test/support/espeak.ts";
import { synthesizeTones } from "../../../server/test/support/fake-speech.ts";
import { ESPEAK_ON_CALL, SPOKEN_ON_CALL } from "./call-script.ts";

const RATE = 48_000;
/** One file per test project (the widget's, the console's), so one's cleanup never removes the other's. */
const pathFor = (project: string) => join(tmpdir(), `voxgate-${project}-microphone-${process.pid}.wav`);

/**
 * Writes the WAV Chromium plays as its microphone (`--use-file-for-fake-audio-capture`, once:
 * `%noloop`): silence while the call connects, the words, then silence that ends the visitor's turn.
 * Returns Chromium's flags.
 */
export function fakeMicrophoneArgs(project = "widget"): string[] {
  const path = pathFor(project);
  const words = synthesizeTones(SPOKEN_ON_CALL, RATE);
  // The file plays from the moment the widget opens the microphone, and what it captures before its socket
  // is open is not sent: under CI's load a second was sometimes too short for the connection, and the
  // words went unheard. Three seconds is still under any assistant's silence prompt (5 s at least).
  const lead = RATE * 3;
  const audio = new Int16Array(lead + words.length + RATE * 3);
  audio.set(words, lead);
  writeFileSync(path, wavFile(audio, RATE));
  return [
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    `--use-file-for-fake-audio-capture=${path}%noloop`,
    "--autoplay-policy=no-user-gesture-required",
  ];
}

export function removeFakeMicrophone(project = "widget"): void {
  rmSync(pathFor(project), { force: true });
}

/** The browser instance whose microphone speaks with espeak-ng. */
export const SPEECH_INSTANCE = "widget-speech";
const SPEECH_RATE = 16_000;

/**
 * Real speech as the microphone (`--use-file-for-fake-audio-capture`, once): a second and a half of
 * silence while the call connects, `ESPEAK_ON_CALL` said by espeak-ng at 16 kHz, then silence that
 * ends the visitor's turn. Null, with the reason logged, when espeak-ng or sox is missing.
 */
export function espeakMicrophoneArgs(): string[] | null {
  const missing = espeakMissing();
  if (missing) {
    console.warn(`[voxgate] ${missing}: the espeak-ng web call test is skipped.`);
    return null;
  }
  const speech = espeakMicrophoneSpeech();
  const audio = new Int16Array(SPEECH_RATE * 1.5 + speech.pcm.length + SPEECH_RATE * 3);
  audio.set(speech.pcm, SPEECH_RATE * 1.5);
  const path = pathFor(SPEECH_INSTANCE);
  writeFileSync(path, wavFile(audio, SPEECH_RATE));
  return [
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    `--use-file-for-fake-audio-capture=${path}%noloop`,
    "--autoplay-policy=no-user-gesture-required",
  ];
}

/** The espeak-ng speech the microphone plays (cached: the global setup reads its voiced time). */
export function espeakMicrophoneSpeech(): EspeakSpeech {
  return espeak(ESPEAK_ON_CALL, { voice: "en-us", sampleRate: SPEECH_RATE });
}
