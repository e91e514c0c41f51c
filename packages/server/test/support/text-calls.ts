import { vi } from "vitest";
import { createLogger } from "../../src/logger.ts";
import { TextMediaStream } from "../../src/modules/media/index.ts";
import { PipelineSession } from "../../src/modules/voice/pipeline-session.ts";
import type { PipelinePorts, SessionSettings, SessionTurn } from "../../src/modules/voice/session-ports.ts";
import { SESSION_SETTINGS } from "./session-settings.ts";

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

/**
 * The pipeline session on a text stream (a simulated call without its carrier), `reply` standing in
 * for the reply engine: what the caller heard (`heard`, word by word as played) and the stored turns.
 */
export function textCall(settings: Partial<SessionSettings>, reply: PipelinePorts["reply"]) {
  const stream = new TextMediaStream(7, "text-7");
  const words: string[] = [];
  stream.onAssistant((word) => words.push(word));
  const turns: SessionTurn[] = [];
  const ports: PipelinePorts = {
    logger: createLogger("silent"),
    transcribe: () => Promise.reject(new Error("a text call has no audio to transcribe")),
    synthesize: () => Promise.reject(new Error("a text call has no speech to synthesize")),
    turn: async (turn) => {
      turns.push(turn);
    },
    hangUp: vi.fn(async () => stream.close()),
    callerLeft: vi.fn(async () => {}),
    reply,
  };
  new PipelineSession(stream, { ...SESSION_SETTINGS, ...settings }, ports).start();
  return { stream, heard: () => words.join(" "), turns, ports };
}
