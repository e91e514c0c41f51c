import { css, html, nothing, svg } from "lit";
import type { ConsoleInsightsQuery, ConsoleInsightsSetupQuery } from "../generated/graphql.ts";
import { href } from "../router.ts";
import { DataScreen, emptyState, money } from "../screen.ts";
import { callStatus } from "../status-words.ts";
import { formatDay, formatTime } from "../zoned-format.ts";
import { InsightsQuery, InsightsSetupQuery } from "./insights.operations.ts";

type Insights = ConsoleInsightsQuery["insights"];
type Point = Insights["series"][number];
type Setup = { timezone: string; assistants: ConsoleInsightsSetupQuery["assistants"]["items"] };

const PRESETS = [
  ["7", "Last 7 days"],
  ["30", "Last 30 days"],
  ["90", "Last 90 days"],
  ["custom", "Custom dates"],
] as const;

const WHOLE = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const ONE_DECIMAL = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/** A total in the account's currency, to the cent: an overview reads better without sub-cent digits. */
const cents = (value: string | number) => money(Number(value).toFixed(2));
const percent = (rate: number | null | undefined) =>
  rate === null || rate === undefined ? "—" : `${Math.round(rate * 100)}%`;
const milliseconds = (value: number | null | undefined) =>
  value === null || value === undefined ? "—" : `${WHOLE.format(value)} ms`;
const plural = (count: number, one: string, many: string) =>
  `${WHOLE.format(count)} ${count === 1 ? one : many}`;

/** The UTC offset of `timeZone` at `instant`, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  );
  const wall = Date.UTC(
    +parts.year!,
    +parts.month! - 1,
    +parts.day!,
    +parts.hour!,
    +parts.minute!,
    +parts.second!,
  );
  return wall - Math.floor(instant / 1000) * 1000;
}

/** Midnight starting `day` (YYYY-MM-DD) on the wall clock of `timeZone`: the account's days, not the browser's. */
export function zonedMidnight(day: string, timeZone: string): Date {
  const guess = Date.parse(`${day}T00:00:00Z`);
  const first = guess - offsetAt(guess, timeZone);
  return new Date(guess - offsetAt(first, timeZone));
}

/** Today's date (YYYY-MM-DD) in `timeZone`, moved by `days`. */
function dayIn(timeZone: string, days = 0): string {
  const today = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date());
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The overview of the account's calls and conversations over a period (the last 7, 30 or 90 days of
 * the account's time zone, or chosen dates), for all assistants or one: figures, charts per day (per
 * hour for a day or two) and the most frequent ways calls ended (docs/console.md#insights).
 */
export class VxInsights extends DataScreen<Insights> {
  static override properties = {
    setup: { state: true },
    preset: { state: true },
    periodError: { state: true },
  };
  static override styles = [
    ...DataScreen.styles,
    css`
      .figures {
        display: grid;
        grid-template-columns: repeat(auto-fill, minmax(min(100%, 9rem), 1fr));
        gap: 0.75rem;
        margin: 1rem 0;
        padding: 0;
      }
      .figures > div {
        border: 1px solid var(--_border);
        border-radius: var(--_radius);
        padding: 0.75rem 1rem;
        min-width: 0;
      }
      .figures dt {
        color: var(--_muted);
        font-size: 0.9rem;
      }
      .figures dd {
        margin: 0;
        overflow-wrap: anywhere;
      }
      .figures dd.value {
        font-size: 1.5rem;
        font-weight: 700;
        font-variant-numeric: tabular-nums;
      }
      .charts {
        display: grid;
        grid-template-columns: repeat(auto-fit, minmax(min(100%, 20rem), 1fr));
        gap: 1rem;
      }
      figure {
        margin: 0;
        min-width: 0;
      }
      figcaption {
        font-weight: 700;
        margin-bottom: 0.25rem;
      }
      svg.chart {
        width: 100%;
        height: auto;
        display: block;
        color: var(--_muted);
      }
      svg.chart .bar {
        fill: var(--_accent);
      }
      svg.chart .axis {
        stroke: var(--_border);
      }
      svg.chart text {
        fill: currentColor;
        font-size: 11px;
      }
      details {
        margin-top: 0.25rem;
      }
    `,
  ];
  declare setup: Setup | null;
  declare preset: (typeof PRESETS)[number][0];
  declare periodError: string | null;
  #assistantId: number | null = null;
  #custom: { from: string; to: string } | null = null;

  constructor() {
    super();
    this.setup = null;
    this.preset = "30";
    this.periodError = null;
  }

  protected override async fetch() {
    if (!this.setup) {
      const { viewer, assistants } = await this.api.request(InsightsSetupQuery);
      this.setup = { timezone: viewer.account.timezone, assistants: assistants.items };
    }
    return (
      await this.api.request(InsightsQuery, {
        period: this.period(this.setup.timezone),
        assistantId: this.#assistantId,
      })
    ).insights;
  }

  /** The whole days picked, from the first day's midnight to the midnight after the last, in the account's zone. */
  private period(timeZone: string): { from: string; to: string } {
    const [first, last] =
      this.preset === "custom" && this.#custom
        ? [this.#custom.from, this.#custom.to]
        : [dayIn(timeZone, 1 - Number(this.preset === "custom" ? 30 : this.preset)), dayIn(timeZone)];
    const after = new Date(Date.parse(`${last}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    return {
      from: zonedMidnight(first, timeZone).toISOString(),
      to: zonedMidnight(after, timeZone).toISOString(),
    };
  }

  private choose(event: Event): void {
    const form = (event.target as HTMLElement).closest("form")!;
    const data = new FormData(form);
    this.preset = String(data.get("preset")) as typeof this.preset;
    this.#assistantId = data.get("assistantId") ? Number(data.get("assistantId")) : null;
    if (this.preset !== "custom") {
      this.#custom = null;
      this.periodError = null;
      void this.load();
    }
  }

  private applyDates(event: SubmitEvent): void {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const from = String(data.get("from") ?? "");
    const to = String(data.get("to") ?? "");
    if (!from || !to) {
      this.periodError = "Pick a first and a last day.";
      return;
    }
    if (from > to) {
      this.periodError = "The last day must be on or after the first.";
      return;
    }
    this.periodError = null;
    this.#custom = { from, to };
    void this.load();
  }

  override render() {
    return html`
      <h1>Overview</h1>
      <form class="grid" aria-label="Overview filters" @change=${this.choose} @submit=${this.applyDates}>
        <div>
          <label for="preset">Period</label>
          <select id="preset" name="preset">
            ${PRESETS.map(([value, label]) => html`<option value=${value} ?selected=${this.preset === value}>${label}</option>`)}
          </select>
        </div>
        <div>
          <label for="assistant">Assistant</label>
          <select id="assistant" name="assistantId">
            <option value="">All assistants</option>
            ${this.setup?.assistants.map(
              (assistant) =>
                html`<option value=${assistant.id} ?selected=${this.#assistantId === assistant.id}>${assistant.name}</option>`,
            )}
          </select>
        </div>
        ${
          this.preset === "custom"
            ? html`<div><label for="from">First day</label><input id="from" name="from" type="date" .value=${this.#custom?.from ?? ""} /></div>
              <div><label for="to">Last day</label><input id="to" name="to" type="date" .value=${this.#custom?.to ?? ""} /></div>
              <div style="align-self: end"><button type="submit">Show</button></div>`
            : nothing
        }
      </form>
      ${this.periodError ? html`<p class="error" role="alert">${this.periodError}</p>` : nothing}
      ${this.loaded((insights) => this.renderInsights(insights))}
    `;
  }

  private renderInsights(insights: Insights) {
    const timezone = insights.timezone;
    const days = `${formatDay(insights.from, timezone)} to ${formatDay(new Date(Date.parse(insights.to) - 1).toISOString(), timezone)}`;
    const summary = html`<p class="muted" aria-live="polite">${days} (${timezone})${
      this.#assistantId === null
        ? ""
        : `, ${this.setup?.assistants.find((a) => a.id === this.#assistantId)?.name ?? "one assistant"}`
    }.</p>`;
    if (insights.calls === 0 && insights.conversations === 0)
      return html`${summary}${emptyState(
        "No calls or conversations in this period.",
        html`Pick a longer period, or start some: <a href=${href("assistants")}>open an assistant</a> and place a <strong>Test call</strong>, put its chat on your website, or give it a <a href=${href("numbers")}>phone number</a>.`,
      )}`;
    const figure = (label: string, value: string, hint: string, id: string) =>
      html`<div><dt>${label}</dt><dd class="value" data-testid=${`figure-${id}`}>${value}</dd><dd class="hint">${hint}</dd></div>`;
    return html`
      ${summary}
      <dl class="figures" aria-label="Figures">
        ${figure("Calls", WHOLE.format(insights.calls), `${plural(insights.answeredCalls, "answered", "answered")} of ${WHOLE.format(insights.finishedCalls)} finished`, "calls")}
        ${figure("Answer rate", percent(insights.answerRate), "answered of finished calls", "answer-rate")}
        ${figure("Conversations", WHOLE.format(insights.conversations), "chats started", "conversations")}
        ${figure("Minutes", ONE_DECIMAL.format(insights.minutes), "of calls", "minutes")}
        ${figure("Cost", cents(insights.cost), "of calls", "cost")}
        ${figure(
          "Success rate",
          percent(insights.successRate),
          insights.judgedCalls === 0
            ? "no evaluated calls"
            : `${plural(insights.successfulCalls, "success", "successes")} of ${plural(insights.judgedCalls, "evaluated call", "evaluated calls")}`,
          "success-rate",
        )}
        ${figure("Turn latency", milliseconds(insights.averageTurnLatencyMs), `average over ${plural(insights.measuredTurns, "turn", "turns")}`, "latency")}
        ${figure("Turn latency p95", milliseconds(insights.p95TurnLatencyMs), "95% of answers came sooner", "latency-p95")}
        ${figure("Transfers", WHOLE.format(insights.transfers), "calls passed to a person", "transfers")}
        ${figure("Bookings", WHOLE.format(insights.bookings), "appointments booked", "bookings")}
      </dl>
      <div class="charts">
        ${this.chart(insights, "Calls", (point) => point.calls, WHOLE.format)}
        ${this.chart(insights, "Conversations", (point) => point.conversations, WHOLE.format)}
        ${this.chart(insights, "Cost", (point) => Number(point.cost), cents)}
      </div>
      <h2>How calls ended</h2>
      ${
        insights.endedReasons.length === 0
          ? html`<p class="muted">No call of the period has ended yet.</p>`
          : html`<div class="table-wrap"><table aria-label="Most frequent endings">
          <thead><tr><th>Status</th><th>Reason</th><th class="num">Calls</th><th class="num">Share</th></tr></thead>
          <tbody>${insights.endedReasons.map(
            (
              row,
            ) => html`<tr><td>${callStatus(row.status.replace(/-/g, "_"))}</td><td>${row.reason || "—"}</td>
              <td class="num">${WHOLE.format(row.calls)}</td><td class="num">${percent(row.calls / insights.finishedCalls)}</td></tr>`,
          )}</tbody></table></div>`
      }
    `;
  }

  /**
   * A bar per hour or day, drawn by hand in SVG (no chart library to download). The picture is an
   * image with a one-line summary for screen readers; its numbers are in a table under it.
   */
  private chart(
    insights: Insights,
    title: string,
    value: (point: Point) => number,
    format: (value: number) => string,
  ) {
    const points = insights.series;
    const hourly = insights.bucket === "hour";
    const label = (point: Point) =>
      hourly
        ? `${formatDay(point.start, insights.timezone)} ${formatTime(point.start, insights.timezone)}`
        : formatDay(point.start, insights.timezone);
    const values = points.map(value);
    const total = values.reduce((sum, next) => sum + next, 0);
    const peak = Math.max(0, ...values);
    const peakAt = values.indexOf(peak);
    const step = hourly ? "hour" : "day";
    const id = `chart-${title.toLowerCase()}`;
    const description =
      peak === 0
        ? `${title} per ${step}: none in the period.`
        : `${title} per ${step}: ${format(total)} in all, most on ${label(points[peakAt]!)} with ${format(peak)}.`;
    const [width, height, left, bottom, top] = [320, 140, 4, 18, 14];
    const plotHeight = height - bottom - top;
    const slot = (width - left * 2) / Math.max(1, points.length);
    const bar = Math.max(1, slot * 0.8);
    return html`<figure>
      <figcaption id=${`${id}-title`}>${title} per ${step}</figcaption>
      <svg class="chart" viewBox="0 0 ${width} ${height}" role="img" aria-label=${description} data-testid=${id}>
        <text x=${left} y="10">${format(peak)}</text>
        <line class="axis" x1=${left} x2=${width - left} y1=${top + plotHeight} y2=${top + plotHeight}></line>
        ${values.map((next, index) => {
          const barHeight = peak === 0 ? 0 : (next / peak) * plotHeight;
          return svg`<rect class="bar" x=${left + index * slot + (slot - bar) / 2} y=${top + plotHeight - barHeight} width=${bar} height=${barHeight}></rect>`;
        })}
        ${
          points.length > 0
            ? svg`<text x=${left} y=${height - 4}>${label(points[0]!)}</text>
              <text x=${width - left} y=${height - 4} text-anchor="end">${label(points.at(-1)!)}</text>`
            : nothing
        }
      </svg>
      <details>
        <summary>${title} as a table</summary>
        <div class="table-wrap"><table aria-labelledby=${`${id}-title`}>
          <thead><tr><th>${hourly ? "Hour" : "Day"}</th><th class="num">${title}</th></tr></thead>
          <tbody>${points.map((point, index) => html`<tr><td>${label(point)}</td><td class="num">${format(values[index]!)}</td></tr>`)}</tbody>
        </table></div>
      </details>
    </figure>`;
  }
}
