import { html, nothing } from "lit";
import type { ConsoleCompareTestRunsQuery, ConsoleTestResultFieldsFragment } from "../generated/graphql.ts";
import { href } from "../router.ts";
import { DataScreen, formatDate, Screen } from "../screen.ts";
import { renderResult, testStyles, verdict } from "./test-result.ts";
import { CompareTestRunsQuery } from "./tests.operations.ts";

type Comparison = ConsoleCompareTestRunsQuery["compareTestRuns"];

/**
 * `#/tests/<assistantId>/compare/<a>/<b>`: the scenarios whose verdict changed between run a (before)
 * and run b (after), each side by side with what it said and why it passed or failed.
 */
export class VxTestCompare extends DataScreen<Comparison> {
  static override properties = {
    assistantId: { attribute: false },
    beforeRunId: { attribute: false },
    afterRunId: { attribute: false },
  };
  declare assistantId: number;
  declare beforeRunId: number;
  declare afterRunId: number;

  protected override async fetch() {
    return (await this.api.request(CompareTestRunsQuery, { a: this.beforeRunId, b: this.afterRunId }))
      .compareTestRuns;
  }

  override render() {
    return html`<p><a href=${href("tests", this.assistantId)}>← Tests</a></p>
      <h1>Compare run ${this.beforeRunId} with run ${this.afterRunId}</h1>
      ${this.loaded((c) => this.renderComparison(c))}`;
  }

  private renderComparison(c: Comparison) {
    const run = (label: string, r: Comparison["before"]) =>
      html`<div><dt class="muted">${label}</dt><dd><a href=${href("tests", this.assistantId, "run", String(r.id))}>Run ${r.id}</a>
        ${verdict(r.status)} ${r.passed} of ${r.total} passed · ${formatDate(r.createdAt)}</dd></div>`;
    return html`
      <dl class="grid">${run("Before", c.before)}${run("After", c.after)}</dl>
      <p role="status">${
        c.changed.length === 0
          ? "No scenario changed its verdict."
          : `${c.changed.length} ${c.changed.length === 1 ? "scenario changed its verdict" : "scenarios changed their verdicts"}`
      }; ${c.unchanged} unchanged.</p>
      ${
        c.changed.length
          ? html`<div class="table-wrap"><table aria-label="Changed verdicts">
              <thead><tr><th>Scenario</th><th>Before (run ${c.before.id})</th><th>After (run ${c.after.id})</th></tr></thead>
              <tbody>${c.changed.map(
                (change) => html`<tr><td>${change.scenarioName}</td>
                  <td>${change.before ? verdict(change.before.status) : "not in the run"}</td>
                  <td>${change.after ? verdict(change.after.status) : "not in the run"}</td></tr>`,
              )}</tbody></table></div>`
          : nothing
      }
      ${c.changed.map(
        (change) => html`<section aria-labelledby="change-${change.scenarioId}">
          <h2 id="change-${change.scenarioId}">${change.scenarioName}</h2>
          <div class="side">
            ${this.side(`Before, run ${c.before.id}`, change.before)}
            ${this.side(`After, run ${c.after.id}`, change.after)}
          </div></section>`,
      )}`;
  }

  private side(label: string, result: ConsoleTestResultFieldsFragment | null | undefined) {
    return html`<div role="group" aria-label=${label}>
      <p><strong>${label}:</strong> ${result ? verdict(result.status) : "not in this run"}</p>
      ${result ? renderResult(result) : nothing}</div>`;
  }

  static override styles = [...Screen.styles, testStyles];
}
