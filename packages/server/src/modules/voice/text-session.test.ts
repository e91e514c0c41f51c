import { describe, expect, it, vi } from "vitest";
import { passLineTime as pass, textCall as textStreamCall } from "../../../test/support/text-calls.ts";
import type { SessionSettings } from "./session-ports.ts";
import { VOICE_PHRASES } from "./voice-session.ts";

/** The pipeline session on a text stream, with a reply engine that echoes and ends the call on "bye". */
function textCall(settings: Partial<SessionSettings> = {}) {
  const call = textStreamCall(
    {
      initialMessage: "Hello! How can I help?",
      maxSilenceDuration: 12,
      reengagementInterval: 5,
      ...settings,
    },
    async (history, onDelta) => {
      const said = history.at(-1)!.content;
      const text = `Echo: ${said}`;
      onDelta(text);
      return { text, endCall: said.includes("bye") };
    },
  );
  const settled = () => vi.waitFor(() => expect(call.ports.hangUp).toHaveBeenCalled(), { timeout: 5_000 });
  return { ...call, settled };
}

describe("the voice engine on a text stream (simulated calls)", () => {
  it("greets, answers turns as text with their media offsets, and ends the call through end_call", async () => {
    const { stream, heard, turns, ports, settled } = textCall();
    // Speech takes line time both ways, 400 ms a word at 150 words a minute.
    await pass(stream, 2000);
    expect(heard()).toBe("Hello! How can I help?");
    await pass(stream, 1000);
    stream.say("What time is it?");
    await pass(stream, 1600 + 2000);
    expect(heard()).toMatch(/Echo: What time is it\?$/);
    await pass(stream, 1000);
    stream.say("Thanks, bye.");
    await pass(stream, 800 + 1200);
    await settled();
    expect(ports.hangUp).toHaveBeenCalledWith("The assistant ended the call.");
    expect(ports.callerLeft).not.toHaveBeenCalled();
    // Offsets on the media clock, which only `elapse` moves (silent frames, `passLineTime`): a logical
    // clock, not wall time, so these are exact whatever the load (400 ms a word, 1 s pauses above).
    expect(turns.map((turn) => [turn.speaker, turn.heardText, turn.startMs, turn.endMs])).toEqual([
      ["assistant", "Hello! How can I help?", 0, 2000],
      ["customer", "What time is it?", 3000, 4600],
      ["assistant", "Echo: What time is it?", 4600, 6600],
      ["customer", "Thanks, bye.", 7600, 8400],
      ["assistant", "Echo: Thanks, bye.", 8400, 9600],
    ]);
  });

  it("waits for the caller's first words with wait_for_customer", async () => {
    const { stream, heard, turns } = textCall({ waitForCustomer: true });
    await pass(stream, 500);
    expect(heard()).toBe("");
    stream.say("Hello?");
    await pass(stream, 400 + 2000);
    expect(heard()).toBe("Hello! How can I help?");
    await vi.waitFor(() => expect(turns.map((turn) => turn.speaker)).toEqual(["customer", "assistant"]));
  });

  it("prompts a silent caller, then says goodbye and hangs up, by the stream's clock", async () => {
    const { stream, heard, ports, settled } = textCall({ initialMessage: "" });
    // A prompt at 5 s and one 5 s after the first was said; 2 s after that the silence, prompts
    // included, reaches 12 s: the goodbye.
    await pass(stream, 20_000);
    await settled();
    expect(heard()).toBe(
      [VOICE_PHRASES.reengage, VOICE_PHRASES.reengage, VOICE_PHRASES.silenceGoodbye].join(" "),
    );
    expect(ports.hangUp).toHaveBeenCalledWith("No answer from the caller (silence).");
  });

  it("records the caller's hang-up when the stream ends unasked", async () => {
    const { stream, heard, ports } = textCall();
    await pass(stream, 2000);
    expect(heard()).toBe("Hello! How can I help?");
    stream.close();
    await vi.waitFor(() => expect(ports.callerLeft).toHaveBeenCalledOnce());
  });
});
