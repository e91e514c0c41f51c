import type { TextMediaStream } from "../../src/modules/telephony/text-media-stream.ts";

/**
 * `ms` of line time on a text stream, a 20 ms frame at a time, the engine's promises settling before
 * each (and after the last): a logical clock, the same whatever the machine's load.
 */
export async function passLineTime(stream: TextMediaStream, ms: number) {
  for (let at = 0; at < ms; at += 20) {
    await new Promise((resolve) => setImmediate(resolve));
    stream.elapse(20);
  }
  await new Promise((resolve) => setImmediate(resolve));
}
