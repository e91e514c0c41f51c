import { afterEach, describe, expect, inject, it, vi } from "vitest";
import { page, userEvent } from "vitest/browser";
import { ESPEAK_ON_CALL } from "./support/call-script.ts";
import {
  createAssistant,
  mountWidget,
  part,
  readCall,
  readSpeech,
  recordEvents,
  removeWidgets,
  scriptTranscripts,
} from "./support/widget.ts";

afterEach(removeWidgets);

/**
 * Chromium's microphone may level the voice (the widget asks for echo cancellation, noise
 * suppression and gain control) and resamples it twice on the way to the server.
 */
const VOICED_TOLERANCE_MS = 200;
const voiceSettings = { theme: "light", color: "#4f46e5", position: "bottom-right", voice: true };

describe("a web call with real speech: Chromium's microphone plays espeak-ng into streaming speech-to-text and text-to-speech", () => {
  it("the streaming provider hears the sentence whole, the answer spoken through Cartesia plays in the page", async () => {
    const reference = inject("microphoneSpeech")!;
    const assistant = await createAssistant({ initialMessage: "", widgetSettings: voiceSettings });
    // The fake cannot read speech: it says this once it heard an utterance and its ending silence.
    await scriptTranscripts(ESPEAK_ON_CALL);
    const events = recordEvents("voxgate-call-start", "voxgate-call-end", "voxgate-error");
    const widget = mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase });
    await userEvent.click(page.getByRole("button", { name: "Open chat" }));
    await userEvent.click(page.getByRole("button", { name: "Call the assistant" }));
    await expect.element(page.getByText("On a call: speak now")).toBeVisible();
    await vi.waitFor(() => expect(events.map((event) => event.type)).toContain("voxgate-call-start"), {
      timeout: 15_000,
    });
    const callId = events[0]!.detail.callId as number;

    // The visitor's turn and the answer are shown as the call goes; the answer's audio is played
    // and acknowledged (its turn's playedAt).
    await expect.element(page.getByText(`Echo: ${ESPEAK_ON_CALL}`), { timeout: 30_000 }).toBeVisible();
    await expect.element(page.getByText(ESPEAK_ON_CALL, { exact: true })).toBeVisible();
    expect(part(widget, "message-spoken")).not.toBeNull();
    await vi.waitFor(
      async () =>
        expect((await readCall(callId)).turns).toEqual([
          { speaker: "customer", text: ESPEAK_ON_CALL, played: false },
          { speaker: "assistant", text: `Echo: ${ESPEAK_ON_CALL}`, played: true },
        ]),
      { timeout: 30_000, interval: 200 },
    );

    // Deepgram's fake heard one utterance carrying as much voice as the espeak-ng file, and the
    // answer went through one Cartesia context to its end.
    const speech = await readSpeech();
    expect(speech.utterances.map((utterance) => utterance.transcript)).toEqual([ESPEAK_ON_CALL]);
    const [heard] = speech.utterances;
    expect(Math.abs(heard!.voicedMs - reference.voicedMs)).toBeLessThanOrEqual(VOICED_TOLERANCE_MS);
    expect(Math.abs(heard!.endMs - heard!.startMs - reference.spanMs)).toBeLessThanOrEqual(
      VOICED_TOLERANCE_MS,
    );
    expect(speech.contexts).toEqual([{ done: true, cancelled: false }]);

    await userEvent.click(page.getByRole("button", { name: "Hang up" }));
    await expect.element(page.getByText("Call ended")).toBeVisible();
    await vi.waitFor(async () => expect((await readCall(callId)).status).toBe("ended_by_customer"), {
      timeout: 15_000,
      interval: 200,
    });
  }, 60_000);
});
