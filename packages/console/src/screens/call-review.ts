import { css, html, nothing, type TemplateResult } from "lit";
import type { ConsoleCallQuery } from "../generated/graphql.ts";
import { humanize } from "../status-words.ts";

export type ReviewedTurn = ConsoleCallQuery["call"]["turns"][number];
type FunctionCallShown = ReviewedTurn["functionCalls"][number];

/**
 * The stages of an answer after the caller stopped speaking, as the waterfall shows them; each keeps
 * its colour (`s<index>`) whichever of them a turn reached.
 */
const STAGES = [
  { key: "transcriptAt", label: "Transcript", part: "speech recognition" },
  { key: "firstTokenAt", label: "First token", part: "language model" },
  { key: "firstAudioAt", label: "First audio", part: "speech synthesis" },
  { key: "playedAt", label: "Heard", part: "playing to the caller" },
] as const;

export interface WaterfallStage {
  label: string;
  /** Its colour's class. */
  colour: string;
  /** ms after the caller's end of speech. */
  atMs: number;
  /**
   * On the answer's path: its bar segment spans `spanMs` from the stage before (`part` is what ran
   * meanwhile). Beside it: stamped after a later stage (a realtime model's transcript of the caller,
   * which runs beside its answer), listed with its time but no segment.
   */
  beside: boolean;
  part: string;
  spanMs: number;
}

export interface Waterfall {
  stages: WaterfallStage[];
  /** The last stage on the answer's path. */
  totalMs: number;
}

/**
 * An answered assistant turn's stages from the caller's end of speech; null without that start. A
 * turn has the marks its engine stamps: a realtime model's response that only called a function has
 * no audio, a realtime transcript may come after the answer started, a fixed phrase answers nobody.
 */
export function waterfallOf(turn: ReviewedTurn): Waterfall | null {
  if (turn.speaker !== "assistant" || !turn.speechEndedAt) return null;
  const start = Date.parse(turn.speechEndedAt);
  if (!Number.isFinite(start)) return null;
  const reached = STAGES.flatMap((stage, index) => {
    const at = Date.parse(turn[stage.key] ?? "");
    // Stamped by different parts of the engine: never drawn before the caller stopped speaking.
    return Number.isFinite(at)
      ? [{ label: stage.label, colour: `s${index}`, part: stage.part, atMs: Math.max(0, at - start) }]
      : [];
  });
  let before = 0;
  let parts: string[] = [];
  const stages = reached.map((stage, index): WaterfallStage => {
    parts.push(stage.part);
    const beside = reached.slice(index + 1).some((later) => later.atMs < stage.atMs);
    if (beside) return { ...stage, beside, part: stage.part, spanMs: 0 };
    const shown = { ...stage, beside, part: parts.join(" and "), spanMs: stage.atMs - before };
    before = stage.atMs;
    parts = [];
    return shown;
  });
  return stages.length === 0 ? null : { stages, totalMs: before };
}

const ms = (value: number) =>
  value >= 10_000 ? `${(value / 1000).toFixed(1)} s` : `${Math.round(value)} ms`;

/** "1:05" of a position in the recording. */
export function clock(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * An answer's latency: one bar, a segment per stage, over `scaleMs` (the call's slowest answer, so
 * turns compare at a glance), and the same figures as a list a screen reader and a phone read.
 */
export function renderWaterfall(waterfall: Waterfall, scaleMs: number): TemplateResult {
  const firstAudio = waterfall.stages.find((stage) => stage.label === "First audio");
  return html`<div class="waterfall" data-testid="waterfall">
    <div class="bar" aria-hidden="true">${waterfall.stages.map((stage) =>
      stage.beside
        ? nothing
        : html`<span class="segment ${stage.colour}" style="width: ${(100 * stage.spanMs) / Math.max(1, scaleMs)}%"
          title="${stage.part}: ${ms(stage.spanMs)}"></span>`,
    )}</div>
    <ol class="stages" aria-label="Latency from the caller's end of speech">
      <li><span>End of speech</span> <span class="muted">0 ms</span></li>
      ${waterfall.stages.map(
        (stage) =>
          html`<li class=${stage.beside ? "beside" : ""}><span class="dot ${stage.colour}" aria-hidden="true"></span><span>${stage.label}</span>
            <span class="muted">+${ms(stage.atMs)}</span>${stage.beside ? html` <span class="muted">(arrived after the answer started)</span>` : nothing}</li>`,
      )}
    </ol>
    ${firstAudio ? html`<p class="muted latency">Answered in ${ms(firstAudio.atMs)}</p>` : nothing}
  </div>`;
}

/** A JSON value as readable fields: objects as definition lists, arrays as lists, the rest as text. */
export function renderFields(value: unknown, empty: string): TemplateResult {
  if (value === null || value === undefined || value === "") return html`<p class="muted">${empty}</p>`;
  if (Array.isArray(value)) {
    return value.length === 0
      ? html`<p class="muted">${empty}</p>`
      : html`<ul class="values">${value.map((item) => html`<li>${renderValue(item)}</li>`)}</ul>`;
  }
  if (typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return html`<p class="muted">${empty}</p>`;
    return html`<dl class="fields">${entries.map(
      ([key, item]) =>
        html`<div><dt>${humanize(key.replace(/([a-z0-9])([A-Z])/g, "$1 $2"))}</dt><dd>${renderValue(item)}</dd></div>`,
    )}</dl>`;
  }
  return html`<p>${renderValue(value)}</p>`;
}

function renderValue(value: unknown): unknown {
  if (value === true) return "Yes";
  if (value === false) return "No";
  if (value === null || value === undefined || value === "") return html`<span class="muted">—</span>`;
  if (typeof value === "object") return renderFields(value, "None");
  return String(value);
}

function renderFunctionCall(call: FunctionCallShown): TemplateResult {
  const outcome = call.error === null ? "succeeded" : "failed";
  return html`<details class="function-call" data-testid="function-call">
    <summary><span class="badge">Function</span> <code>${call.name}</code> ${outcome}
      <span class="muted">(${ms(call.durationMs)})</span></summary>
    <h4>Arguments</h4>
    ${renderFields(call.arguments, "No arguments.")}
    ${
      call.error === null
        ? html`<h4>Result</h4>${renderFields(call.result, "No result.")}`
        : html`<p class="error">${call.error}</p>`
    }
  </details>`;
}

/** What the assistant generated and the caller never heard: the text after what was played. */
function unheardPart(turn: ReviewedTurn): string {
  if (!turn.interrupted) return "";
  return turn.text.startsWith(turn.heardText) ? turn.text.slice(turn.heardText.length).trim() : "";
}

/**
 * Turns in the order they were spoken: by their start on the call's media clock, which counts whole
 * 20 ms frames of the caller's audio, so two answers may start on the same frame (a Realtime response
 * that only called a function, and the filler said right after it): those go by when the model began
 * each (`firstTokenAt`). Stored order cannot say it: a turn is stored when it ends.
 */
function inSpokenOrder(a: ReviewedTurn, b: ReviewedTurn): number {
  if (a.startMs !== b.startMs) return a.startMs - b.startMs;
  if (!a.firstTokenAt || !b.firstTokenAt) return 0;
  return Date.parse(a.firstTokenAt) - Date.parse(b.firstTokenAt);
}

/**
 * The call as a chat: the caller's turns on one side, the assistant's on the other with the
 * functions it called and the latency of its answer. `playing` is the turn the recording is at;
 * `seek` (when there is a recording) makes each turn's time a button that plays from there.
 */
export function renderTranscript(
  turns: readonly ReviewedTurn[],
  options: { playingId: number | null; seek: ((turn: ReviewedTurn) => void) | null },
): TemplateResult {
  const waterfalls = new Map(turns.map((turn) => [turn.id, waterfallOf(turn)]));
  const scaleMs = Math.max(1, ...[...waterfalls.values()].map((waterfall) => waterfall?.totalMs ?? 0));
  // A caller's words that began before an assistant's prompt may be stored after it.
  const spoken = [...turns].sort(inSpokenOrder);
  return html`<ol class="transcript" aria-label="Transcript">
    ${spoken.map((turn) => {
      if (turn.speaker === "system") {
        return html`<li class="turn system"><p class="muted">${turn.text}</p></li>`;
      }
      const waterfall = waterfalls.get(turn.id) ?? null;
      const who = turn.speaker === "assistant" ? "Assistant" : "Caller";
      const unheard = unheardPart(turn);
      // A realtime model's response may only call functions: its bubble is their records, no words.
      const said = turn.speaker === "assistant" ? turn.heardText || turn.text : turn.text;
      const playing = options.playingId === turn.id;
      return html`<li class="turn ${turn.speaker} ${playing ? "playing" : ""}" data-turn=${turn.id}
          aria-current=${playing ? "true" : nothing}>
        <div class="bubble">
          <p class="who"><strong>${who}</strong>
            ${
              options.seek
                ? html`<button type="button" class="time" @click=${() => options.seek?.(turn)}
                    aria-label="Play from ${clock(turn.startMs)} (${who})">${clock(turn.startMs)}</button>`
                : html`<span class="muted">${clock(turn.startMs)}</span>`
            }
            ${turn.interrupted ? html`<span class="badge interrupted">Interrupted</span>` : nothing}</p>
          ${turn.functionCalls.map(renderFunctionCall)}
          ${said ? html`<p class="said">${said}</p>` : nothing}
          ${unheard ? html`<p class="unheard"><span class="sr-only">Not heard by the caller: </span><s>${unheard}</s></p>` : nothing}
          ${waterfall ? renderWaterfall(waterfall, scaleMs) : nothing}
        </div>
      </li>`;
    })}
  </ol>`;
}

/**
 * The turn the recording plays at `ms`: the latest one started by then that still lasts. A caller's
 * turn lasts until its end of speech; an assistant's until the next turn starts (or the recording
 * ends), because its `endMs` is when its audio was sent, while the recording plays that audio out
 * in real time after it (docs/console.md#calls-review-like-a-person).
 */
export function turnAt(turns: readonly ReviewedTurn[], ms: number): ReviewedTurn | null {
  const spoken = turns.filter((turn) => turn.speaker !== "system").sort(inSpokenOrder);
  let index = -1;
  while (index + 1 < spoken.length && spoken[index + 1]!.startMs <= ms) index++;
  const turn = spoken[index];
  if (!turn) return null;
  const until =
    turn.speaker === "assistant"
      ? (spoken[index + 1]?.startMs ?? Number.POSITIVE_INFINITY)
      : Math.max(turn.endMs, turn.startMs + 1);
  return ms < until ? turn : null;
}

export const callReviewStyles = css`
  .transcript {
    list-style: none;
    padding: 0;
    margin: 0;
    display: flex;
    flex-direction: column;
    gap: 0.75rem;
  }
  .turn {
    display: flex;
  }
  .turn.assistant {
    justify-content: flex-start;
  }
  .turn.customer {
    justify-content: flex-end;
  }
  .turn.system {
    justify-content: center;
  }
  .bubble {
    max-width: min(40rem, 85%);
    min-width: 0;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    padding: 0.5rem 0.75rem;
    background: var(--_background);
    overflow-wrap: anywhere;
  }
  .turn.customer .bubble {
    background: var(--_surface);
  }
  .turn.playing .bubble {
    outline: 3px solid var(--_link);
    outline-offset: 1px;
  }
  .who {
    margin: 0;
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
    align-items: center;
  }
  .said {
    margin: 0.35rem 0 0;
  }
  .unheard {
    margin: 0.25rem 0 0;
    color: var(--_muted);
  }
  button.time {
    min-height: 2rem;
    padding: 0.1rem 0.5rem;
    font-variant-numeric: tabular-nums;
  }
  .badge.interrupted {
    border-color: var(--_danger);
    color: var(--_danger);
  }
  .function-call {
    margin: 0.35rem 0;
    border-left: 3px solid var(--_border);
    padding-left: 0.5rem;
  }
  .function-call h4 {
    margin: 0.5rem 0 0.25rem;
    font-size: 0.9rem;
  }
  .waterfall {
    margin-top: 0.5rem;
  }
  .waterfall .bar {
    display: flex;
    height: 0.6rem;
    border-radius: 4px;
    background: var(--_surface);
    overflow: hidden;
  }
  .waterfall .segment {
    display: block;
    min-width: 2px;
  }
  .waterfall .stages {
    list-style: none;
    padding: 0;
    margin: 0.35rem 0 0;
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 0.9rem;
    font-size: 0.85rem;
  }
  .waterfall .dot {
    display: inline-block;
    width: 0.6rem;
    height: 0.6rem;
    border-radius: 50%;
    margin-right: 0.25rem;
  }
  .waterfall .latency {
    margin: 0.25rem 0 0;
  }
  .s0 {
    background: #0ea5e9;
  }
  .s1 {
    background: #a855f7;
  }
  .s2 {
    background: #f59e0b;
  }
  .s3 {
    background: #22c55e;
  }
  dl.fields {
    margin: 0;
    display: grid;
    gap: 0.35rem;
  }
  dl.fields > div {
    display: grid;
    grid-template-columns: minmax(8rem, 14rem) 1fr;
    gap: 0.75rem;
  }
  dl.fields dt {
    color: var(--_muted);
  }
  dl.fields dd {
    margin: 0;
    min-width: 0;
    overflow-wrap: anywhere;
  }
  @media (max-width: 700px) {
    dl.fields > div {
      grid-template-columns: 1fr;
      gap: 0;
    }
    .bubble {
      max-width: 92%;
    }
  }
  ul.values {
    margin: 0;
    padding-left: 1.25rem;
  }
  audio {
    width: 100%;
  }
`;
