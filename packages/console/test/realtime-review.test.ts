import { afterEach, describe, expect, inject, it } from "vitest";
import { commands, page } from "vitest/browser";
import { expectAccessibleInBothThemes } from "./support/axe.ts";
import {
  callScreen,
  openCallReview,
  pageFits,
  realtimeAnswers,
  resetPage,
  talkTo,
} from "./support/call-review.ts";
import { createAccount, graphql, signIn } from "./support/console.ts";

afterEach(resetPage);

const STAGES = ["End of speech", "Transcript", "First token", "First audio", "Heard"];

/**
 * A waterfall as shown: its stages as listed (offset in ms from the end of speech, and whether it is
 * marked as arriving after the answer started), and its bar's segment widths (percent of the call's
 * slowest answer).
 */
function waterfallOf(turn: HTMLElement) {
  const waterfall = turn.querySelector<HTMLElement>('[data-testid="waterfall"]');
  if (!waterfall) return null;
  const stages = [...waterfall.querySelectorAll(".stages li")].map((item) => {
    const [offset, note] = [...item.querySelectorAll(".muted")].map((span) => span.textContent ?? "");
    return { label: item.querySelector("span:not(.dot)")?.textContent ?? "", offset: offset ?? "", note };
  });
  return {
    text: waterfall.textContent ?? "",
    labels: stages.map((stage) => stage.label),
    stages,
    at: (label: string) =>
      Number(/^\+(\d+) ms$/.exec(stages.find((s) => s.label === label)?.offset ?? "")?.[1]),
    widths: [...waterfall.querySelectorAll<HTMLElement>(".bar .segment")].map((segment) =>
      Number.parseFloat(segment.style.width),
    ),
  };
}

/**
 * A web assistant on a realtime model (`multimodal`: it speaks; `dualplex`: it writes, the assistant's
 * voice speaks) with a webhook function (the control server's /hook answers {"ok": true}), saying a
 * filler while it runs. Its uuid.
 */
async function tableDesk(mode: "multimodal" | "dualplex"): Promise<string> {
  const { createAssistant } = await graphql<{ createAssistant: { uuid: string } }>(
    `mutation { createAssistant(input: {
      name: "Table desk", type: web, mode: ${mode}, record: true, widgetSettings: { voice: true },
      fillers: 1, fillerConfig: { neutral: ["Just a second."] },
      tools: [{ name: "check_table", description: "Checks a table.",
        parameters: { type: "object", properties: { people: { type: "number" }, terrace: { type: "boolean" } } },
        url: "${inject("controlUrl")}/hook", method: "POST", timeout: 5 }]
    }) { uuid } }`,
  );
  return createAssistant.uuid;
}

/** A function call's fields under `heading` ("Arguments", "Result") as [name, value] pairs. */
function fieldsOf(turn: HTMLElement, heading: string) {
  const list = [...turn.querySelectorAll("h4")].find((h4) => h4.textContent === heading)?.nextElementSibling;
  return [...(list?.querySelectorAll("dl.fields > div") ?? [])].map((field) => [
    field.querySelector("dt")?.textContent?.trim(),
    field.querySelector("dd")?.textContent?.trim(),
  ]);
}

/** Never a broken waterfall: offsets as ms, every segment a finite, non-negative share within the bar. */
function expectWhole(waterfall: NonNullable<ReturnType<typeof waterfallOf>>) {
  expect(waterfall.text).not.toMatch(/NaN|Infinity|undefined|-\d/);
  for (const stage of waterfall.stages) expect(stage.offset).toMatch(/^\+?\d+ ms$/);
  expect(waterfall.widths.every((share) => Number.isFinite(share) && share >= 0)).toBe(true);
  expect(waterfall.widths.reduce((sum, share) => sum + share, 0)).toBeLessThanOrEqual(100.01);
}

/** The transcript's turns as shown, in order. */
const shownTurns = () => [...callScreen().querySelectorAll<HTMLElement>("li[data-turn]")];
const said = (turn: HTMLElement) => turn.querySelector(".said")?.textContent?.trim() ?? "";

describe("a realtime call's review", () => {
  it("multimodal: shows its turns as a chat, the function the model called with its arguments and result, and each answer's waterfall from the marks it has", {
    timeout: 240_000,
  }, async () => {
    await signIn(await createAccount());
    const uuid = await tableDesk("multimodal");
    // The visitor talks to the model through the widget's web call; the Realtime stand-in hears tone
    // speech, echoes it, and for the table calls the function, then answers from its result.
    const call = await talkTo(uuid, { recorded: true });
    // The caller's transcription runs beside the model's answer: here it arrives after the answer
    // started, as the API says it may.
    await realtimeAnswers({ text: "Echo: hi", transcriptionLate: true });
    await call.say("hi", "Echo: hi");
    await realtimeAnswers(
      { functionCall: { name: "check_table", arguments: { people: 4, terrace: true } } },
      { text: "A table is free." },
    );
    await call.say("a table for four", "A table is free.");
    const { turns } = await call.hangUp();
    const answers = turns.filter((turn) => turn.speaker === "assistant");
    expect(answers.map((turn) => turn.text)).toEqual(
      expect.arrayContaining(["Echo: hi", "", "Just a second.", "A table is free."]),
    );

    for (const [label, width, height] of [
      ["desktop", 1440, 900],
      ["phone", 390, 844],
    ] as const) {
      await page.viewport(width, height);
      await openCallReview(call.callId);
      const transcript = page.getByRole("list", { name: "Transcript", exact: true });
      await expect.element(transcript).toBeVisible();
      // The chat in the order spoken: the greeting, the visitor's words and each answer; the response
      // that only called the function is a turn of its own, before the filler said meanwhile.
      const shown = shownTurns();
      const callerWords = shown.filter((turn) => turn.classList.contains("customer")).map(said);
      expect(callerWords).toEqual(["hi", "a table for four"]);
      const echo = shown.find((turn) => said(turn) === "Echo: hi")!;
      const calling = shown.find((turn) => turn.querySelector('[data-testid="function-call"]'))!;
      const filler = shown.find((turn) => said(turn) === "Just a second.")!;
      const free = shown.find((turn) => said(turn) === "A table is free.")!;
      for (const turn of [echo, calling, filler, free]) expect(turn).toBeDefined();
      expect(calling.classList.contains("assistant")).toBe(true);
      expect(said(calling)).toBe("");
      const order = [echo, calling, filler, free].map((turn) => shown.indexOf(turn));
      expect(order).toEqual([...order].sort((a, b) => a - b));

      // The function inline, its arguments and result as readable fields once opened.
      const functionCall = page.elementLocator(calling.querySelector('[data-testid="function-call"]')!);
      await expect.element(functionCall.getByText("check_table", { exact: true })).toBeVisible();
      await expect.element(functionCall.getByText(/succeeded/)).toBeVisible();
      await functionCall.getByText("check_table", { exact: true }).click();
      await expect.element(functionCall.getByRole("heading", { name: "Arguments" })).toBeVisible();
      expect(fieldsOf(calling, "Arguments")).toEqual([
        ["People", "4"],
        ["Terrace", "Yes"],
      ]);
      expect(fieldsOf(calling, "Result")).toEqual([["Ok", "Yes"]]);
      expect(calling.textContent).not.toContain("{");

      // Each answer to the visitor's speech has its waterfall, from the marks a realtime turn has.
      const echoed = waterfallOf(echo)!;
      const answered = waterfallOf(free)!;
      for (const waterfall of [echoed, answered]) {
        expect(waterfall.labels).toEqual(STAGES);
        expect(waterfall.text).toMatch(/Answered in \d+ ms/);
      }
      // The model answered before its transcript of "hi" came: the first token is shown when it came,
      // the transcript after it, said to have arrived after the answer started, and not on the bar.
      expect(echoed.at("First token")).toBeLessThan(echoed.at("Transcript"));
      expect(echoed.stages.find((stage) => stage.label === "Transcript")?.note).toBe(
        "(arrived after the answer started)",
      );
      expect(echoed.widths).toHaveLength(3);
      // Transcribed before the answer, the transcript is a stage on the way to it.
      expect(answered.at("Transcript")).toBeLessThanOrEqual(answered.at("First token"));
      expect(answered.stages.every((stage) => stage.note === undefined)).toBe(true);
      expect(answered.widths).toHaveLength(4);
      // The response that only called the function reached no audio: its waterfall ends at its first
      // token (the call), with no "answered in"; the filler answers nobody's speech: none at all.
      const called = waterfallOf(calling)!;
      expect(called.labels).toEqual(["End of speech", "Transcript", "First token"]);
      expect(called.text).not.toMatch(/Answered in/);
      expect(waterfallOf(filler)).toBeNull();
      // Never a broken bar: every segment a finite, non-negative share, all of them within the bar.
      for (const waterfall of [echoed, answered, called]) expectWhole(waterfall);
      // Each stage keeps its colour whichever stages a turn reached: the first token's is the same.
      const colour = (turn: HTMLElement, label: string) =>
        [...turn.querySelectorAll(".stages li")]
          .find((item) => item.textContent?.includes(label))
          ?.querySelector(".dot")?.className;
      expect(colour(calling, "First token")).toBe(colour(free, "First token"));
      await expect.element(page.getByText(/^median \d+ ms, p95 \d+ ms over \d+ answers?$/)).toBeVisible();

      // The recording plays in the page, from each turn's time.
      await expect
        .poll(() => callScreen().querySelector("audio")?.duration ?? Number.NaN, { timeout: 20_000 })
        .toBeGreaterThan(0);
      expect(echo.querySelector("button.time")?.getAttribute("aria-label")).toMatch(
        /^Play from \d+:\d\d \(Assistant\)$/,
      );

      expect(pageFits()).toBe(true);
      echo.scrollIntoView({ block: "start" });
      if (label === "desktop") await commands.saveScreenshot("call-review-realtime");
      await expectAccessibleInBothThemes();
    }
  });

  it("dualplex: shows the function call on the turn whose filler the assistant's voice said, and whole waterfalls", {
    timeout: 240_000,
  }, async () => {
    await signIn(await createAccount());
    const call = await talkTo(await tableDesk("dualplex"), { recorded: false });
    await realtimeAnswers(
      { functionCall: { name: "check_table", arguments: { people: 2, terrace: false } } },
      { text: "A table is free." },
    );
    await call.say("a table for two", "A table is free.");
    await call.hangUp();

    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ] as const) {
      await page.viewport(width, height);
      await openCallReview(call.callId);
      await expect.element(page.getByRole("list", { name: "Transcript", exact: true })).toBeVisible();
      const shown = shownTurns();
      // The model writes, the assistant's voice speaks: the filler is spoken within the response that
      // called the function, so that turn has both the call and the words.
      const calling = shown.find((turn) => turn.querySelector('[data-testid="function-call"]'))!;
      expect(said(calling)).toBe("Just a second.");
      const free = shown.find((turn) => said(turn) === "A table is free.")!;
      expect(shown.indexOf(calling)).toBeLessThan(shown.indexOf(free));
      const functionCall = page.elementLocator(calling.querySelector('[data-testid="function-call"]')!);
      await functionCall.getByText("check_table", { exact: true }).click();
      await expect.element(functionCall.getByRole("heading", { name: "Result" })).toBeVisible();
      expect(fieldsOf(calling, "Arguments")).toEqual([
        ["People", "2"],
        ["Terrace", "No"],
      ]);
      expect(fieldsOf(calling, "Result")).toEqual([["Ok", "Yes"]]);
      // The answer written from the result was spoken by the assistant's voice: every stage.
      const answered = waterfallOf(free)!;
      expect(answered.labels).toEqual(STAGES);
      expect(answered.text).toMatch(/Answered in \d+ ms/);
      for (const turn of shown) {
        const waterfall = waterfallOf(turn);
        if (waterfall) expectWhole(waterfall);
      }
      expect(pageFits()).toBe(true);
      await expectAccessibleInBothThemes();
    }
  });
});
