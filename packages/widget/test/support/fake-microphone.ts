import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { wavFile } from "../../../server/src/modules/media/codec.ts";
import { synthesizeTones } from "../../../server/test/support/fake-speech.ts";
import { SPOKEN_ON_CALL } from "./call-script.ts";

const RATE = 48_000;
/** One file per test project (the widget's, the console's), so one's cleanup never removes the other's. */
const pathFor = (project: string) => join(tmpdir(), `voxgate-${project}-microphone-${process.pid}.wav`);

/**
 * Writes the WAV Chromium plays as its microphone (`--use-file-for-fake-audio-capture`, once:
 * `%noloop`): a second of silence while the call connects, the words, then silence that ends the
 * visitor's turn. Returns Chromium's flags.
 */
export function fakeMicrophoneArgs(project = "widget"): string[] {
  const path = pathFor(project);
  const words = synthesizeTones(SPOKEN_ON_CALL, RATE);
  const audio = new Int16Array(RATE + words.length + RATE * 3);
  audio.set(words, RATE);
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
