import { css, html, nothing } from "lit";
import type { ConsoleTestResultFieldsFragment } from "../generated/graphql.ts";
import { href } from "../router.ts";
import { testStatus } from "../status-words.ts";

/**
 * One scenario's outcome in a run, as the run and the comparison show it: how it ended, what it
 * would have cost, the reply latencies, each check and criterion with its reason, the differences from
 * a recorded call, the function calls, the transcript, and a phone scenario's test call (its call page:
 * turns, latency waterfall).
 */
export function renderResult(r: ConsoleTestResultFieldsFragment) {
  if (r.status === "pending" || r.status === "running")
    return html`<p class="muted">${r.status === "pending" ? "Waiting for its turn." : "Playing now…"}</p>`;
  const calls = Array.isArray(r.functionCalls) ? r.functionCalls : [];
  return html`
    <dl class="grid">
      <div><dt class="muted">Ended by</dt><dd>${ENDINGS[r.endedBy] ?? (r.endedBy || "—")}</dd></div>
      <div><dt class="muted">Cost (never charged)</dt><dd>${r.cost}</dd></div>
      ${
        r.callId === null || r.callId === undefined
          ? nothing
          : html`<div><dt class="muted">Test call</dt><dd><a href=${href("calls", r.callId)}>Call ${r.callId}</a></dd></div>`
      }
      <div><dt class="muted">Reply latencies</dt><dd>${
        r.turnLatencies.length ? r.turnLatencies.map((ms) => `${ms} ms`).join(", ") : "—"
      }</dd></div>
    </dl>
    ${r.error ? html`<p class="error">${r.error}</p>` : nothing}
    ${
      r.checks.length
        ? html`<h3>Checks</h3><ul class="verdicts">${r.checks.map(
            (
              c,
            ) => html`<li class=${c.passed ? "pass" : "fail"}>${mark(c.passed)} <span>${c.description}</span>
              ${c.detail ? html`<br /><span class="reason">${c.detail}</span>` : nothing}</li>`,
          )}</ul>`
        : nothing
    }
    ${
      r.judge.length
        ? html`<h3>Judge</h3><ul class="verdicts">${r.judge.map(
            (j) => html`<li class=${j.passed ? "pass" : "fail"}>${mark(j.passed)} <span>${j.criterion}</span>
              <br /><span class="reason">${j.reasoning}</span></li>`,
          )}</ul>`
        : nothing
    }
    ${
      r.divergences.length
        ? html`<h3>Different from the recorded answers</h3><ul>${r.divergences.map(
            (d) => html`<li>Reply ${d.turn}: then “${d.expected}”, now “${d.actual}”</li>`,
          )}</ul>`
        : nothing
    }
    ${calls.length ? html`<h3>Function calls</h3><pre>${JSON.stringify(calls, null, 2)}</pre>` : nothing}
    <h3>Transcript</h3>
    ${
      r.transcript.length
        ? html`<ol class="transcript">${r.transcript.map(
            (
              line,
            ) => html`<li class=${line.role}><strong>${line.role === "customer" ? "Customer" : "Assistant"}:</strong>
              ${line.content}${line.latencyMs !== null ? html` <span class="muted">(${line.latencyMs} ms)</span>` : nothing}</li>`,
          )}</ol>`
        : html`<p class="muted">Nothing was said.</p>`
    }`;
}

const ENDINGS: Record<string, string> = {
  customer: "the customer (nothing more to say)",
  handoff: "a hand-off",
  turn_limit: "the turn limit",
};

/** Passed or failed in words, not only in colour (WCAG 1.4.1). */
function mark(passed: boolean) {
  return html`<strong class="mark">${passed ? "Passed" : "Failed"}:</strong>`;
}

/** A run's or a scenario's status as a badge. */
export function verdict(status: string) {
  return html`<span class="badge verdict ${status}">${testStatus(status)}</span>`;
}

export const testStyles = css`
  dd {
    margin: 0 0 0.5rem;
  }
  .verdict.passed {
    color: var(--_ok);
    border-color: var(--_ok);
  }
  .verdict.failed,
  .verdict.error,
  .verdict.timed_out {
    color: var(--_danger);
    border-color: var(--_danger);
  }
  .verdicts {
    list-style: none;
    padding: 0;
  }
  .verdicts li {
    margin: 0.4rem 0;
  }
  .verdicts .pass .mark {
    color: var(--_ok);
  }
  .verdicts .fail .mark {
    color: var(--_danger);
  }
  .reason {
    color: var(--_muted);
  }
  .transcript li {
    margin: 0.3rem 0;
    overflow-wrap: anywhere;
  }
  .results {
    padding-left: 1.25rem;
  }
  .results > li {
    margin: 0.5rem 0;
  }
  summary {
    cursor: pointer;
    padding: 0.35rem 0;
    min-height: 2.5rem;
  }
  summary .name {
    font-weight: 600;
  }
  details > :not(summary) {
    margin-left: 0.25rem;
  }
  progress {
    width: 100%;
    max-width: 24rem;
    height: 1rem;
  }
  .confirm {
    border: 2px solid var(--_accent);
    border-radius: var(--_radius);
    padding: 0.75rem;
    margin: 0.75rem 0;
  }
  .side {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(min(100%, 18rem), 1fr));
    gap: 1rem;
  }
  .side > div {
    min-width: 0;
  }
`;
