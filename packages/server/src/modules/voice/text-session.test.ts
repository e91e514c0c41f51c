import { describe, expect, it, vi } from "vitest";
import { createLogger } from "../../logger.ts";
import { TextMediaStream } from "../telephony/text-media-stream.ts";
import {
  type PipelinePorts,
  PipelineSession,
  type SessionSettings,
  type SessionTurn,
  VOICE_PHRASES,
} from "./voice-session.ts";

const SETTINGS: SessionSettings = {
  initialMessage: "Hello! How can I help?",
  waitForCustomer: false,
  allowInterruptions: true,
  interruptSensitivity: 0.5,
  minInterruptWords: 1,
  endpointSensitivity: 0.5,
  semanticEndOfTurn: false,
  maxSilenceDuration: 12,
  reengagementInterval: 5,
  language: null,
  voice: "alloy",
  speechSpeed: 1,
  fillers: [],
};

/** The pipeline session on a text stream, with a reply engine that echoes and ends the call on "bye". */
function textCall(settings: Partial<SessionSettings> = {}) {
  const stream = new TextMediaStream(7, "text-7");
  const heard: string[] = [];
  stream.onAssistant((sentence) => heard.push(sentence));
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
    reply: async (history, onDelta) => {
      const said = history.at(-1)!.content;
      const text = `Echo: ${said}`;
      onDelta(text);
      return { text, endCall: said.includes("bye") };
    },
  };
  const session = new PipelineSession(stream, { ...SETTINGS, ...settings }, ports);
  session.start();
  const settled = () => vi.waitFor(() => expect(ports.hangUp).toHaveBeenCalled(), { timeout: 5_000 });
  return { stream, heard, turns, ports, settled };
}

describe("the voice engine on a text stream (simulated calls)", () => {
  it("greets, answers turns as text with their media offsets, and ends the call through end_call", async () => {
    const { stream, heard, turns, ports, settled } = textCall();
    await vi.waitFor(() => expect(heard).toEqual(["Hello!", "How can I help?"]));
    stream.elapse(1000);
    stream.say("What time is it?");
    await vi.waitFor(() => expect(heard.at(-1)).toBe("Echo: What time is it?"));
    stream.elapse(2000);
    stream.say("Thanks, bye.");
    await settled();
    expect(ports.hangUp).toHaveBeenCalledWith("The assistant ended the call.");
    expect(ports.callerLeft).not.toHaveBeenCalled();
    // Offsets on the media clock, which only `elapse` moves (silent frames): exact, whatever the load.
    expect(turns.map((turn) => [turn.speaker, turn.heardText, turn.startMs])).toEqual([
      ["assistant", "Hello! How can I help?", 0],
      ["customer", "What time is it?", 1000],
      ["assistant", "Echo: What time is it?", 1000],
      ["customer", "Thanks, bye.", 3000],
      ["assistant", "Echo: Thanks, bye.", 3000],
    ]);
  });

  it("waits for the caller's first words with wait_for_customer", async () => {
    const { stream, heard, turns } = textCall({ waitForCustomer: true });
    stream.elapse(500);
    expect(heard).toEqual([]);
    stream.say("Hello?");
    await vi.waitFor(() => expect(heard).toEqual(["Hello!", "How can I help?"]));
    await vi.waitFor(() => expect(turns.map((turn) => turn.speaker)).toEqual(["customer", "assistant"]));
  });

  it("prompts a silent caller, then says goodbye and hangs up, by the stream's clock", async () => {
    const { stream, heard, ports, settled } = textCall({ initialMessage: "" });
    for (let round = 0; round < 3; round++) {
      stream.elapse(5100);
      await vi.waitFor(() => expect(heard.length).toBeGreaterThan(round));
    }
    await settled();
    // 5.1 s, 10.2 s: a prompt each; at 15.3 s the silence, prompts included, passed 12 s.
    expect(heard.join(" ")).toBe(
      [VOICE_PHRASES.reengage, VOICE_PHRASES.reengage, VOICE_PHRASES.silenceGoodbye].join(" "),
    );
    expect(ports.hangUp).toHaveBeenCalledWith("No answer from the caller (silence).");
  });

  it("records the caller's hang-up when the stream ends unasked", async () => {
    const { stream, heard, ports } = textCall();
    await vi.waitFor(() => expect(heard).toHaveLength(2));
    stream.close();
    await vi.waitFor(() => expect(ports.callerLeft).toHaveBeenCalledOnce());
  });
});
