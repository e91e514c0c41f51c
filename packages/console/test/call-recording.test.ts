import { afterEach, describe, expect, inject, it } from "vitest";
import { commands, page } from "vitest/browser";
import { expectAccessibleInBothThemes } from "./support/axe.ts";
import { callScreen, openCallReview, resetPage, type StoredTurn, talkTo } from "./support/call-review.ts";
import { createAccount, graphql, signIn, unmountConsole } from "./support/console.ts";

afterEach(resetPage);

const audio = () => callScreen().querySelector("audio");
const turnItem = (turn: StoredTurn) => callScreen().querySelector<HTMLElement>(`li[data-turn="${turn.id}"]`)!;
/** The turn the page marks as the one being played, if any. */
const current = () =>
  callScreen().querySelector<HTMLElement>('.turn[aria-current="true"]')?.dataset.turn ?? null;

describe("a call's recording in the console", () => {
  it("plays a recorded web call, seeks from a turn's time and follows the transcript as it plays", {
    timeout: 150_000,
  }, async () => {
    await signIn(await createAccount());
    const { createAssistant } = await graphql<{ createAssistant: { uuid: string } }>(
      'mutation { createAssistant(input: { name: "Front desk", type: web, record: true, widgetSettings: { voice: true } }) { uuid } }',
    );
    // A real call, recorded by the server as any call is (both sides mixed into a stored WAV), with
    // the turns the engine noted on the recording's timeline: the assistant's prompt to the silent
    // visitor, the visitor's words and the answer to them. Once stored, the call points at its recording.
    const call = await talkTo(createAssistant.uuid, { recorded: true });
    await call.say("hi");
    const { turns, recordingUrl, recordingStatus } = await call.hangUp();
    expect(recordingStatus).toBe("stored");
    // In the order they were spoken (a turn is stored when it ends: the list may be in another).
    const spoken = turns.filter((turn) => turn.speaker !== "system").sort((a, b) => a.startMs - b.startMs);
    expect(spoken.map((turn) => turn.speaker)).toContain("customer");
    const first = spoken[0]!;
    const last = spoken.at(-1)!;
    expect(last.speaker).toBe("assistant");
    expect(last.startMs).toBeGreaterThan(first.startMs);

    await openCallReview(call.callId);
    // The player, from the recording fetched with the session token, knows how long the call is.
    await expect.poll(() => audio()?.duration ?? Number.NaN, { timeout: 20_000 }).toBeGreaterThan(0);
    const player = audio()!;
    expect(player.src).toMatch(/^blob:/);
    expect(Number.isFinite(player.duration)).toBe(true);
    // Every turn starts within the recording.
    expect(last.startMs / 1000).toBeLessThan(player.duration);
    // The chat lists the turns in the order they were spoken, whatever the order they were stored in.
    const listed = [...callScreen().querySelectorAll<HTMLElement>("li[data-turn]")].map((item) =>
      Number(item.dataset.turn),
    );
    expect(listed).toEqual([...turns].sort((a, b) => a.startMs - b.startMs).map((turn) => turn.id));
    expect(current()).toBeNull();

    // A later turn's time plays from its start, and that turn is the one marked.
    const lastTime = page.elementLocator(turnItem(last).querySelector("button.time")!);
    await expect.element(lastTime).toHaveAccessibleName(/^Play from \d+:\d\d \(Assistant\)$/);
    await lastTime.click();
    await expect.poll(() => current()).toBe(String(last.id));
    expect(player.currentTime).toBeGreaterThanOrEqual(last.startMs / 1000 - 0.05);
    expect(getComputedStyle(turnItem(last).querySelector(".bubble")!).outlineStyle).toBe("solid");
    expect(turnItem(first).hasAttribute("aria-current")).toBe(false);
    // It really plays: the position moves on from the turn's start.
    await expect.poll(() => player.currentTime, { timeout: 15_000 }).toBeGreaterThan(last.startMs / 1000);

    // From the first turn, playing on reaches the last and the mark follows (an assistant's turn is
    // marked while its audio plays, past the moment it was sent: its `endMs`).
    await page.elementLocator(turnItem(first).querySelector("button.time")!).click();
    await expect.poll(() => current()).toBe(String(first.id));
    await expect.poll(() => current(), { timeout: 30_000 }).toBe(String(last.id));
    player.pause();

    await commands.saveScreenshot("call-recording");
    await expectAccessibleInBothThemes();

    // Another account's session finds no such recording.
    const path = new URL(recordingUrl).pathname;
    unmountConsole();
    await signIn(await createAccount());
    const { token } = JSON.parse(localStorage.getItem("voxgate-console:session")!) as { token: string };
    const foreign = await fetch(`${inject("apiBase")}${path}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(foreign.status).toBe(404);
  });
});
