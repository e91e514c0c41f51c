import { expect, inject } from "vitest";
import { commands, page } from "vitest/browser";
import type { FakeRealtimeAnswer } from "../../../server/test/support/fake-realtime.ts";
import { graphql, unmountConsole } from "./console.ts";
import { visitorCall } from "./visitor-call.ts";

/**
 * What the call review tests share: the call's page and its turns as the API stores them, a
 * visitor's web call talked through turn by turn (axe-core: ./axe.ts).
 */

/** Unmounts the console and puts the page back as the next test expects it: light, the default size. */
export async function resetPage(): Promise<void> {
  unmountConsole();
  await commands.setColorScheme("light");
  await page.viewport(1280, 860);
}

export interface StoredTurn {
  id: number;
  speaker: string;
  text: string;
  startMs: number;
  endMs: number;
}

/** A call's turns (in the order stored) and recording, read through the API as the signed-in user. */
export const callTurns = async (callId: number) =>
  (
    await graphql<{ call: { turns: StoredTurn[]; recordingUrl: string; recordingStatus: string } }>(
      `query { call(id: ${callId}) { recordingUrl recordingStatus turns { id speaker text startMs endMs } } }`,
    )
  ).call;

/** The call page's shadow root (`vx-call` inside the console). */
export const callScreen = () =>
  document.querySelector("voxgate-console")!.shadowRoot!.querySelector("vx-call")!.shadowRoot!;

/** Opens a call's review page afresh (from the list when it is open already) and waits for it. */
export async function openCallReview(callId: number): Promise<void> {
  if (location.hash === `#/calls/${callId}`) {
    location.hash = "#/calls";
    await expect.element(page.getByRole("heading", { level: 1, name: "Calls" })).toBeVisible();
  }
  location.hash = `#/calls/${callId}`;
  await expect
    .element(page.getByRole("heading", { level: 1, name: new RegExp(`^Call ${callId}\\b`) }))
    .toBeVisible();
}

/** The page's own width is the window's: nothing runs off to the side. */
export const pageFits = () => document.documentElement.scrollWidth <= window.innerWidth;

/** What the test server's OpenAI Realtime stand-in answers next, in order, before it echoes again. */
export async function realtimeAnswers(...answers: FakeRealtimeAnswer[]): Promise<void> {
  const response = await fetch(`${inject("controlUrl")}/realtime/answers`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ answers }),
  });
  if (!response.ok) throw new Error(`control /realtime/answers failed: ${response.status}`);
}

const spokenOrder = (turns: readonly StoredTurn[]) =>
  turns.filter((turn) => turn.speaker !== "system").sort((a, b) => a.startMs - b.startMs);

/**
 * A visitor's web call to an assistant (visitor-call.ts), talked through turn by turn: it starts once
 * the assistant's opening turn is stored; `say` speaks and waits for the answer to be stored (a turn
 * is stored once its audio was sent: the recording holds it when the visitor hangs up); `hangUp`
 * waits for the recording to be stored when the assistant records.
 */
export async function talkTo(assistantUuid: string, options: { recorded: boolean }) {
  const call = await visitorCall(assistantUuid);
  await expect
    .poll(async () => (await callTurns(call.callId)).turns.some((turn) => turn.speaker === "assistant"), {
      timeout: 30_000,
    })
    .toBe(true);
  return {
    callId: call.callId,
    /**
     * Says `words`, then waits for the visitor's turn and the answer to it: an assistant turn that
     * started once the visitor stopped, or, given its words, the turn saying `answer` that started
     * after the visitor did (a realtime caller's turn transcribed once the answer started is stored
     * as ending then: see docs/console.md#realtime-calls).
     */
    async say(words: string, answer?: string): Promise<void> {
      const before = (await callTurns(call.callId)).turns.filter(
        (turn) => turn.speaker === "customer",
      ).length;
      call.say(words);
      await expect
        .poll(
          async () => {
            const spoken = spokenOrder((await callTurns(call.callId)).turns);
            const visitor = spoken.filter((turn) => turn.speaker === "customer")[before];
            if (!visitor) return false;
            return spoken.some(
              (turn) =>
                turn.speaker === "assistant" &&
                (answer === undefined
                  ? turn.startMs >= visitor.endMs
                  : turn.text === answer && turn.startMs > visitor.startMs),
            );
          },
          { timeout: 40_000, message: `an answer to "${words}"` },
        )
        .toBe(true);
    },
    /** Hangs up; the call's turns and recording once stored. */
    async hangUp() {
      call.hangUp();
      if (options.recorded)
        await expect
          .poll(async () => (await callTurns(call.callId)).recordingUrl, { timeout: 30_000 })
          .toMatch(new RegExp(`/recordings/${call.callId}\\.wav$`));
      return callTurns(call.callId);
    },
  };
}
