import { html, nothing } from "lit";
import { AssistantNamesQuery } from "../api/operations.ts";
import type {
  ConsoleAssistantNamesQuery,
  ConsoleTestRunsQuery,
  ConsoleTestRunUpdatedSubscription,
  ConsoleTestSuiteEstimateQuery,
  ConsoleTestsScreenQuery,
} from "../generated/graphql.ts";
import { href, navigate } from "../router.ts";
import { DataScreen, fieldError, formatDate, formMessage, loading, Screen } from "../screen.ts";
import { testStatus } from "../status-words.ts";
import { renderResult, testStyles, verdict } from "./test-result.ts";
import {
  CreateTestSuiteMutation,
  DeleteTestSuiteMutation,
  RunTestSuiteMutation,
  TestRunSubscription,
  TestRunsQuery,
  TestSuiteEstimateQuery,
  TestsScreenQuery,
} from "./tests.operations.ts";

type Overview = ConsoleTestsScreenQuery;
type Suite = Overview["testSuites"][number];
type Estimate = ConsoleTestSuiteEstimateQuery["testSuiteEstimate"];
type RunSummary = ConsoleTestRunsQuery["testRuns"][number];
type Run = ConsoleTestRunUpdatedSubscription["testRunUpdated"];

/**
 * A run past either bound asks to be confirmed after its estimate is read: its model requests are paid
 * to the provider (never from the balance), and a slip of the finger should not start fifty
 * conversations. Smaller runs start at once; their estimate is on the suite's card beforehand.
 */
const LARGE_RUN = { scenarios: 10, modelRequests: 100 };

function finished(run: { status: string }): boolean {
  return run.status !== "queued" && run.status !== "running";
}

interface SuiteView {
  suite: Suite;
  estimate: Estimate | null;
  runs: RunSummary[];
}

/** `#/tests`: which assistant's tests to open. */
export class VxTestsPicker extends DataScreen<ConsoleAssistantNamesQuery["assistants"]["items"]> {
  protected override async fetch() {
    return (await this.api.request(AssistantNamesQuery)).assistants.items;
  }

  override render() {
    return html`<h1>Tests</h1>
      <p class="muted">Scenarios an assistant must keep handling, run before a change goes live. Choose an assistant.</p>
      ${this.loaded((assistants) =>
        assistants.length === 0
          ? html`<p>No assistants yet. <a href=${href("assistants", "new")}>Create one</a> first.</p>`
          : html`<ul>${assistants.map((a) => html`<li><a href=${href("tests", a.id)}>${a.name}</a></li>`)}</ul>`,
      )}`;
  }
}

/**
 * `#/tests/<assistantId>`: the assistant's scenarios and the suites holding them, with their cost
 * estimates, recent runs, a run button and a comparison of two runs.
 */
export class VxTests extends DataScreen<{ overview: Overview; suites: SuiteView[] }> {
  static override properties = {
    assistantId: { attribute: false },
    confirming: { state: true },
  };
  declare assistantId: number;
  /** The suite whose large run waits for a confirmation, with the concurrency asked for. */
  declare confirming: { suiteId: number; concurrency: number } | null;

  constructor() {
    super();
    this.confirming = null;
  }

  protected override async fetch() {
    const overview = await this.api.request(TestsScreenQuery, { assistantId: this.assistantId });
    const own = new Set(overview.testScenarios.map((s) => s.id));
    // A suite may mix assistants' scenarios: it shows wherever one of its scenarios belongs.
    const suites = await Promise.all(
      overview.testSuites
        .filter((suite) => suite.scenarioIds.some((id) => own.has(id)))
        .map(async (suite) => {
          const [estimate, runs] = await Promise.all([
            this.api
              .request(TestSuiteEstimateQuery, { suiteId: suite.id })
              .then((r) => r.testSuiteEstimate)
              .catch(() => null),
            this.api.request(TestRunsQuery, { suiteId: suite.id }).then((r) => r.testRuns),
          ]);
          return { suite, estimate, runs };
        }),
    );
    return { overview, suites };
  }

  private async createSuite(event: SubmitEvent): Promise<void> {
    await this.submit(event, async (data) => {
      const scenarioIds = data.getAll("scenarioIds").map(Number);
      await this.api.request(CreateTestSuiteMutation, {
        input: { name: String(data.get("name") ?? ""), scenarioIds },
      });
    });
  }

  private async startRun(view: SuiteView, concurrency: number, confirmed = false): Promise<void> {
    const estimate = view.estimate;
    const large =
      estimate !== null &&
      (estimate.scenarios > LARGE_RUN.scenarios || estimate.modelRequests > LARGE_RUN.modelRequests);
    if (large && !confirmed) {
      this.confirming = { suiteId: view.suite.id, concurrency };
      return;
    }
    this.confirming = null;
    await this.act(async () => {
      const { runTestSuite } = await this.api.request(RunTestSuiteMutation, {
        suiteId: view.suite.id,
        concurrency,
      });
      navigate("tests", this.assistantId, "run", String(runTestSuite.id));
    });
  }

  private compare(event: SubmitEvent): void {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const before = String(data.get("before"));
    const after = String(data.get("after"));
    if (before === after) {
      this.errors = { fields: {}, message: "Choose two different runs to compare." };
      return;
    }
    navigate("tests", this.assistantId, "compare", before, after);
  }

  override render() {
    return this.loaded(({ overview, suites }) => {
      const scenarios = overview.testScenarios;
      return html`
        <p><a href=${href("assistants", this.assistantId)}>← ${overview.assistant.name}</a></p>
        <h1>Tests: ${overview.assistant.name}</h1>
        <p class="muted">Test runs never charge your balance and never reach real customers: functions answer with
          each scenario's tool results unless it says otherwise.</p>
        ${formMessage(this.errors)}
        <div class="row"><h2>Scenarios</h2>
          <a class="badge" href=${href("tests", this.assistantId, "scenario", "new")}>New scenario</a></div>
        ${
          scenarios.length === 0
            ? html`<p class="muted">No scenarios yet. Write one, or make one from a call or an inbox conversation.</p>`
            : html`<div class="table-wrap"><table>
                <thead><tr><th>Name</th><th>Customer</th><th class="num">Checks</th><th class="num">Criteria</th><th>Made from</th></tr></thead>
                <tbody>${scenarios.map(
                  (s) => html`<tr>
                    <td><a href=${href("tests", this.assistantId, "scenario", String(s.id))}>${s.name}</a></td>
                    <td>${s.script ? `Script, ${s.script.length} ${s.script.length === 1 ? "line" : "lines"}` : "Persona"}</td>
                    <td class="num">${Array.isArray(s.checks) ? s.checks.length : 0}</td>
                    <td class="num">${s.criteria.length}</td>
                    <td>${
                      s.sourceCallId !== null
                        ? html`<a href=${href("calls", s.sourceCallId)}>Call ${s.sourceCallId}</a>`
                        : s.sourceConversationId !== null
                          ? html`<a href=${href("inbox", s.sourceConversationId)}>Conversation</a>`
                          : "—"
                    }</td></tr>`,
                )}</tbody></table></div>`
        }
        <h2>Suites</h2>
        ${suites.length === 0 ? html`<p class="muted">No suites yet.</p>` : suites.map((view) => this.renderSuite(view, scenarios))}
        ${scenarios.length > 0 ? this.renderNewSuite(scenarios) : nothing}
      `;
    });
  }

  private renderSuite(view: SuiteView, scenarios: Overview["testScenarios"]) {
    const { suite, estimate, runs } = view;
    const names = new Map(scenarios.map((s) => [s.id, s.name]));
    const concurrencyId = `concurrency-${suite.id}`;
    const confirming = this.confirming?.suiteId === suite.id ? this.confirming : null;
    return html`<section class="card" aria-labelledby="suite-${suite.id}">
      <h3 id="suite-${suite.id}">${suite.name}</h3>
      <p class="muted">${suite.scenarioIds.map((id) => names.get(id) ?? `Scenario ${id} (another assistant)`).join(" · ")}</p>
      ${
        estimate
          ? html`<p data-testid="estimate-${suite.id}">Estimate: ${estimate.scenarios} ${estimate.scenarios === 1 ? "scenario" : "scenarios"},
              at most ${estimate.replies} replies and ${estimate.modelRequests} model requests, about ${estimate.price} at the reply price
              <span class="muted">(paid to the model provider; never charged to your balance)</span>.</p>`
          : nothing
      }
      <div class="row">
        <label class="inline" for=${concurrencyId}>Scenarios at once</label>
          <select id=${concurrencyId} style="width:auto">${[1, 2, 3, 4].map(
            (n) => html`<option ?selected=${n === 2}>${n}</option>`,
          )}</select>
        <button class="primary" type="button" @click=${() => {
          const select = this.renderRoot.querySelector<HTMLSelectElement>(`#${concurrencyId}`);
          void this.startRun(view, Number(select?.value ?? 2));
        }}>Run suite</button>
        <button class="danger" type="button" @click=${() => {
          if (confirm(`Delete the suite “${suite.name}” and its runs? Its scenarios stay.`))
            void this.act(() => this.api.request(DeleteTestSuiteMutation, { id: suite.id }));
        }}>Delete suite</button>
      </div>
      ${
        confirming
          ? html`<div class="confirm" role="alertdialog" aria-labelledby="confirm-${suite.id}">
              <p id="confirm-${suite.id}"><strong>A large run:</strong> up to ${estimate?.modelRequests} model requests, about
                ${estimate?.price} at the reply price. Start it?</p>
              <div class="row">
                <button class="primary" type="button" @click=${() => void this.startRun(view, confirming.concurrency, true)}>Start run</button>
                <button type="button" @click=${() => {
                  this.confirming = null;
                }}>Cancel</button>
              </div></div>`
          : nothing
      }
      ${
        runs.length === 0
          ? html`<p class="muted">Not run yet.</p>`
          : html`<div class="table-wrap"><table aria-label="Runs of ${suite.name}">
              <thead><tr><th>Run</th><th>Started</th><th>Verdict</th><th class="num">Passed</th><th class="num">Failed</th><th class="num">Errors</th><th class="num">Cost</th></tr></thead>
              <tbody>${runs.map(
                (r) => html`<tr>
                  <td><a href=${href("tests", this.assistantId, "run", String(r.id))}>Run ${r.id}</a></td>
                  <td>${formatDate(r.createdAt)}</td><td>${verdict(r.status)}</td>
                  <td class="num">${r.passed}</td><td class="num">${r.failed}</td><td class="num">${r.errored}</td>
                  <td class="num">${r.cost}</td></tr>`,
              )}</tbody></table></div>
            ${runs.length >= 2 ? this.renderCompare(suite, runs) : nothing}`
      }
    </section>`;
  }

  private renderCompare(suite: Suite, runs: RunSummary[]) {
    const option = (r: RunSummary, selected: boolean) =>
      html`<option value=${r.id} ?selected=${selected}>Run ${r.id} (${testStatus(r.status).toLowerCase()})</option>`;
    return html`<form class="row" @submit=${this.compare} aria-label="Compare runs of ${suite.name}">
      <label class="inline" for="before-${suite.id}">Before</label>
        <select id="before-${suite.id}" name="before" style="width:auto">${runs.map((r, i) => option(r, i === 1))}</select>
      <label class="inline" for="after-${suite.id}">After</label>
        <select id="after-${suite.id}" name="after" style="width:auto">${runs.map((r, i) => option(r, i === 0))}</select>
      <button type="submit">Compare</button>
    </form>`;
  }

  private renderNewSuite(scenarios: Overview["testScenarios"]) {
    return html`<form class="card" @submit=${this.createSuite} aria-labelledby="new-suite">
      <h2 id="new-suite">New suite</h2>
      <label for="suite-name">Suite name</label>
      <input id="suite-name" name="name" required />
      ${fieldError(this.errors, "name")}
      <fieldset><legend>Scenarios, in run order</legend>
        ${scenarios.map(
          (s) =>
            html`<label class="inline"><input type="checkbox" name="scenarioIds" value=${s.id} /> ${s.name}</label>`,
        )}
      </fieldset>
      ${fieldError(this.errors, "scenarioIds")}
      <button class="primary" type="submit">Create suite</button>
    </form>`;
  }

  static override styles = [...Screen.styles, testStyles];
}

/**
 * `#/tests/<assistantId>/run/<runId>`: a run as it plays, scenario by scenario (testRunUpdated), and
 * each finished scenario's transcript, checks, judge reasoning, latencies and cost.
 */
export class VxTestRun extends Screen {
  static override properties = {
    assistantId: { attribute: false },
    runId: { attribute: false },
    testRun: { state: true },
    failure: { state: true },
  };
  declare assistantId: number;
  declare runId: number;
  declare testRun: Run | null;
  declare failure: string | null;

  constructor() {
    super();
    this.testRun = null;
    this.failure = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    // The subscription starts with the run as it is (and again after a reconnect), then each move:
    // nothing between a read and the subscription is missed. A picture never replaces a newer one.
    this.track(
      this.api.subscribe(
        TestRunSubscription,
        { id: this.runId },
        ({ testRunUpdated }) => this.show(testRunUpdated),
        (error) => {
          this.failure = error.message;
        },
      ),
    );
  }

  /** Shows `run` unless what is shown is newer: more scenarios done, or the run already finished. */
  private show(run: Run): void {
    const current = this.testRun;
    if (current && (run.done < current.done || (finished(current) && !finished(run)))) return;
    this.testRun = run;
  }

  override render() {
    const back = html`<p><a href=${href("tests", this.assistantId)}>← Tests</a></p>`;
    if (this.failure) return html`${back}<p class="error" role="alert">${this.failure}</p>`;
    const run = this.testRun;
    if (!run) return html`${back}${loading}`;
    return html`${back}
      <h1>Run ${run.id} ${verdict(run.status)}</h1>
      <div role="status" aria-live="polite" data-testid="run-progress">
        <progress max=${run.total} .value=${run.done} aria-label="Scenarios finished"></progress>
        <p>${run.done} of ${run.total} finished · ${run.passed} passed · ${run.failed} failed · ${run.errored}
          ${run.errored === 1 ? "error" : "errors"}${finished(run) ? html` · <strong>run ${testStatus(run.status).toLowerCase()}</strong>` : nothing}</p>
      </div>
      <dl class="grid">
        <div><dt class="muted">Started</dt><dd>${formatDate(run.startedAt ?? run.createdAt)}</dd></div>
        <div><dt class="muted">Finished</dt><dd>${formatDate(run.finishedAt)}</dd></div>
        <div><dt class="muted">Scenarios at once</dt><dd>${run.concurrency}</dd></div>
        <div><dt class="muted">Cost (never charged)</dt><dd>${run.cost}</dd></div>
      </dl>
      ${run.error ? html`<p class="error">${run.error}</p>` : nothing}
      <h2>Scenarios</h2>
      <ol class="results">${run.results.map(
        (r) => html`<li><details>
          <summary><span class="name">${r.scenarioName}</span> ${verdict(r.status)}</summary>
          ${renderResult(r)}</details></li>`,
      )}</ol>`;
  }

  static override styles = [...Screen.styles, testStyles];
}
