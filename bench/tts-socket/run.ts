/**
 * The first answer's wait for streaming speech, through the production ElevenLabs and Cartesia
 * clients and their local fakes: from opening the answer's context to its first audio chunk, with
 * the call's socket opened lazily by that first answer or at the call's start (`warm`). See README.md.
 */

import { PHONE_FORMAT } from "../../packages/server/src/modules/media/index.ts";
import type { StreamingSynthesizer } from "../../packages/server/src/modules/voice/speech.ts";
import {
  CartesiaSynthesizer,
  ElevenLabsSynthesizer,
} from "../../packages/server/src/modules/voice/streaming-speech.ts";
import { startFakeCartesia } from "../../packages/server/test/support/fake-cartesia.ts";
import { startFakeElevenLabs } from "../../packages/server/test/support/fake-elevenlabs.ts";

const el = await startFakeElevenLabs();
const ca = await startFakeCartesia();
const synths: [string, StreamingSynthesizer][] = [
  ["elevenlabs", new ElevenLabsSynthesizer({ baseUrl: el.baseUrl, apiKey: el.apiKey, model: "m" })],
  ["cartesia", new CartesiaSynthesizer({ baseUrl: ca.baseUrl, apiKey: ca.apiKey, model: "m", version: "v" })],
];
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)]!.toFixed(2);
async function firstChunk(connection: ReturnType<StreamingSynthesizer["connect"]>) {
  const start = performance.now();
  const stream = await connection.open(new AbortController().signal);
  stream.pushText("Hello there. ");
  stream.flush();
  const it = stream.audio[Symbol.asyncIterator]();
  await it.next();
  const ms = performance.now() - start;
  stream.end();
  while (!(await it.next()).done);
  return ms;
}
for (const [name, synth] of synths) {
  for (const mode of ["lazy (handshake in the first answer)", "warm (opened at call start)"]) {
    const times: number[] = [];
    for (let i = 0; i < 300; i++) {
      const connection = synth.connect({ voice: "v", speed: 1, format: PHONE_FORMAT });
      if (mode.startsWith("warm")) {
        connection.warm();
        await new Promise((r) => setTimeout(r, 20));
      }
      times.push(await firstChunk(connection));
      connection.close();
    }
    console.log(`${name} ${mode}: p50 ${pct(times, 0.5)} ms, p95 ${pct(times, 0.95)} ms`);
  }
}
await Promise.all([el.close(), ca.close()]);
