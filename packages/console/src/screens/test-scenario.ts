import { html, nothing } from "lit";
import { live } from "lit/directives/live.js";
import type { ConsoleTestScenarioFieldsFragment } from "../generated/graphql.ts";
import { href, navigate } from "../router.ts";
import { type FormErrors, formErrors, formMessage, loading, noErrors, Screen } from "../screen.ts";
import { testStyles } from "./test-result.ts";
import {
  CreateTestScenarioMutation,
  DeleteTestScenarioMutation,
  TestScenarioQuery,
  UpdateTestScenarioMutation,
} from "./tests.operations.ts";

type Scenario = ConsoleTestScenarioFieldsFragment;
type CheckRow = Record<string, unknown> & { kind: string };

/** The check kinds of docs/testing-assistants.md#checks, and the fields each one asks for. */
const CHECK_KINDS: [kind: string, label: string][] = [
  ["transcript_contains", "The transcript contains a phrase"],
  ["transcript_excludes", "The transcript never contains a phrase"],
  ["function_called", "A function was called"],
  ["function_not_called", "A function was not called"],
  ["ended_by", "The conversation ended by"],
  ["booking_exists", "A booking was made"],
  ["evaluation_equals", "A post-call evaluation field equals"],
  ["latency_under", "Every reply is faster than"],
];

function newCheck(kind: string): CheckRow {
  switch (kind) {
    case "transcript_contains":
    case "transcript_excludes":
      return { kind, phrase: "", speaker: "assistant" };
    case "function_called":
    case "function_not_called":
      return { kind, name: "" };
    case "ended_by":
      return { kind, by: "customer" };
    case "evaluation_equals":
      return { kind, field: "", value: "" };
    case "latency_under":
      return { kind, ms: 3000 };
    default:
      return { kind };
  }
}

/** true, false and numbers are read as such; anything else is text. */
function readValue(text: string): string | number | boolean {
  if (text === "true" || text === "false") return text === "true";
  return text.trim() !== "" && Number.isFinite(Number(text)) ? Number(text) : text;
}

const lines = (text: FormDataEntryValue | null) =>
  String(text ?? "")
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);

/**
 * `#/tests/<assistantId>/scenario/<id|new>`: a scenario's customer (scripted lines or a persona with
 * a goal), the judge's criteria, the checks that need no model, and what stubbed functions answer.
 */
export class VxTestScenario extends Screen {
  static override properties = {
    assistantId: { attribute: false },
    scenarioId: { attribute: false },
    scenario: { state: true },
    customer: { state: true },
    checks: { state: true },
    errors: { state: true },
    saved: { state: true },
    failure: { state: true },
  };
  declare assistantId: number;
  declare scenarioId: number | null;
  declare scenario: Scenario | null;
  declare customer: "scripted" | "persona";
  declare checks: CheckRow[];
  declare errors: FormErrors;
  declare saved: boolean;
  declare failure: string | null;

  constructor() {
    super();
    this.scenarioId = null;
    this.scenario = null;
    this.customer = "scripted";
    this.checks = [];
    this.errors = noErrors;
    this.saved = false;
    this.failure = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    if (this.scenarioId === null) return;
    this.api.request(TestScenarioQuery, { id: this.scenarioId }).then(
      ({ testScenario }) => {
        this.scenario = testScenario;
        this.customer = testScenario.script ? "scripted" : "persona";
        this.checks = Array.isArray(testScenario.checks) ? (testScenario.checks as CheckRow[]) : [];
      },
      (error: Error) => {
        this.failure = error.message;
      },
    );
  }

  /** The messages of `field` and of anything under it (`checks.0.phrase`), under that field. */
  private messages(field: string) {
    const found = Object.entries(this.errors.fields)
      .filter(([key]) => {
        const path = key.replace(/^input\./, "");
        return path === field || path.startsWith(`${field}.`);
      })
      .flatMap(([, messages]) => messages);
    return found.length
      ? html`<p class="field-error" id="error-${field}" role="alert">${found.join(" ")}</p>`
      : nothing;
  }

  private described(field: string) {
    return Object.keys(this.errors.fields).some((key) => key.replace(/^input\./, "").startsWith(field))
      ? `error-${field}`
      : nothing;
  }

  private parseJson(data: FormData, field: string): unknown {
    const text = String(data.get(field) ?? "").trim();
    if (!text) return {};
    try {
      return JSON.parse(text);
    } catch {
      throw { field, message: "This is not valid JSON." };
    }
  }

  private async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    this.saved = false;
    let input: Record<string, unknown>;
    try {
      const checks = this.checks.map((check) => {
        if (check.kind !== "function_called" || typeof check.arguments !== "string") return check;
        const text = check.arguments.trim();
        const { arguments: _text, ...rest } = check;
        if (!text) return rest;
        try {
          return { ...rest, arguments: JSON.parse(text) as unknown };
        } catch {
          throw { field: "checks", message: "A function's arguments are not valid JSON." };
        }
      });
      const turnLimit = String(data.get("turnLimit") ?? "").trim();
      input = {
        name: String(data.get("name") ?? ""),
        channel: String(data.get("channel") ?? "chat"),
        ...(this.customer === "scripted"
          ? { script: lines(data.get("script")) }
          : { persona: String(data.get("persona") ?? ""), goal: String(data.get("goal") ?? "") }),
        ...(turnLimit ? { turnLimit: Number(turnLimit) } : {}),
        criteria: lines(data.get("criteria")),
        checks,
        toolResults: this.parseJson(data, "toolResults"),
        variables: this.parseJson(data, "variables"),
        useRealTools: data.get("useRealTools") === "on",
      };
    } catch (problem) {
      const { field, message } = problem as { field: string; message: string };
      this.errors = { fields: { [field]: [message] }, message: "Some fields need attention." };
      return;
    }
    try {
      if (this.scenarioId === null) {
        await this.api.request(CreateTestScenarioMutation, {
          input: { ...input, assistantId: this.assistantId } as never,
        });
        navigate("tests", this.assistantId);
        return;
      }
      await this.api.request(UpdateTestScenarioMutation, { id: this.scenarioId, input: input as never });
      this.errors = noErrors;
      this.saved = true;
    } catch (error) {
      this.errors = formErrors(error);
    }
  }

  private async deleteScenario(): Promise<void> {
    if (this.scenarioId === null || !confirm("Delete this scenario? Past runs keep its results.")) return;
    try {
      await this.api.request(DeleteTestScenarioMutation, { id: this.scenarioId });
      navigate("tests", this.assistantId);
    } catch (error) {
      this.errors = formErrors(error);
    }
  }

  private setCheck(index: number, patch: Record<string, unknown>): void {
    this.checks = this.checks.map((check, i) => (i === index ? { ...check, ...patch } : check));
  }

  override render() {
    const back = html`<p><a href=${href("tests", this.assistantId)}>← Tests</a></p>`;
    if (this.failure) return html`${back}<p class="error" role="alert">${this.failure}</p>`;
    if (this.scenarioId !== null && !this.scenario) return html`${back}${loading}`;
    const s = this.scenario;
    return html`${back}
      <h1>${s ? s.name : "New scenario"}</h1>
      ${
        s && (s.sourceCallId !== null || s.sourceConversationId !== null)
          ? html`<p class="muted">Made from ${
              s.sourceCallId !== null
                ? html`<a href=${href("calls", s.sourceCallId)}>call ${s.sourceCallId}</a>`
                : html`<a href=${href("inbox", s.sourceConversationId ?? "")}>a conversation</a>`
            }: its customer's lines are the script, and runs list where the answers differ from the recorded ones.</p>`
          : nothing
      }
      <form @submit=${this.save} aria-label="Scenario" novalidate>
        <label for="name">Name</label>
        <input id="name" name="name" required .value=${s?.name ?? ""} aria-describedby=${this.described("name")} />
        ${this.messages("name")}
        <label for="channel">Channel</label>
        <select id="channel" name="channel" style="width:auto" aria-describedby="channel-hint ${this.described("channel") === nothing ? "" : "error-channel"}">
          <option value="chat" ?selected=${(s?.channel ?? "chat") === "chat"}>Chat</option>
          <option value="phone" ?selected=${s?.channel === "phone"}>Phone call (simulated)</option>
        </select>
        <p class="hint" id="channel-hint">A phone scenario is a simulated call through the voice engine, on text turns:
          free, never dialled, no webhooks; it is left out of the calls list.</p>
        ${this.messages("channel")}
        <fieldset><legend>The customer</legend>
          <label class="inline"><input type="radio" name="customer" value="scripted" .checked=${this.customer === "scripted"}
            @change=${() => {
              this.customer = "scripted";
            }} /> Scripted lines (the same every run)</label>
          <label class="inline"><input type="radio" name="customer" value="persona" .checked=${this.customer === "persona"}
            @change=${() => {
              this.customer = "persona";
            }} /> A persona the model plays</label>
          ${
            this.customer === "scripted"
              ? html`<label for="script">Customer lines, one per line</label>
                  <textarea id="script" name="script" aria-describedby=${this.described("script")}
                    .value=${(s?.script ?? []).join("\n")}></textarea>
                  ${this.messages("script")}`
              : html`<label for="persona">Persona</label>
                  <textarea id="persona" name="persona" placeholder="A regular customer, in a hurry, who…"
                    aria-describedby=${this.described("persona")} .value=${s?.persona ?? ""}></textarea>
                  ${this.messages("persona")}
                  <label for="goal">Goal</label>
                  <input id="goal" name="goal" placeholder="Move tomorrow's appointment to Friday" .value=${s?.goal ?? ""} />
                  ${this.messages("goal")}`
          }
          <label for="turnLimit">Turn limit (customer messages, 1–30)</label>
          <input id="turnLimit" name="turnLimit" type="number" min="1" max="30" style="max-width:8rem"
            aria-describedby=${this.described("turnLimit")} .value=${s ? String(s.turnLimit) : ""} />
          ${this.messages("turnLimit")}
        </fieldset>
        <fieldset><legend>What success means</legend>
          <label for="criteria">Criteria for the judge, one per line</label>
          <textarea id="criteria" name="criteria" aria-describedby="criteria-hint ${this.described("criteria") === nothing ? "" : "error-criteria"}"
            .value=${(s?.criteria ?? []).join("\n")}></textarea>
          <p class="hint" id="criteria-hint">Plain sentences, e.g. “The assistant confirms the date before booking”. A model
            decides each one and gives its reasoning.</p>
          ${this.messages("criteria")}
          <h2 id="checks-title">Checks</h2>
          <p class="hint">Decided without a model.</p>
          ${this.checks.map((check, index) => this.renderCheck(check, index))}
          ${this.messages("checks")}
          <div class="row">
            <label class="inline" for="new-check">Add a check</label>
              <select id="new-check" style="width:auto">${CHECK_KINDS.map(([kind, label]) => html`<option value=${kind}>${label}</option>`)}</select>
            <button type="button" @click=${() => {
              const kind =
                this.renderRoot.querySelector<HTMLSelectElement>("#new-check")?.value ??
                "transcript_contains";
              this.checks = [...this.checks, newCheck(kind)];
            }}>Add check</button>
          </div>
        </fieldset>
        <fieldset><legend>Functions and variables</legend>
          <label for="toolResults">Tool results (JSON, by function name)</label>
          <textarea id="toolResults" name="toolResults" aria-describedby="tools-hint ${this.described("toolResults") === nothing ? "" : "error-toolResults"}"
            placeholder='{ "lookup_order": { "status": "shipped" } }'
            .value=${s && Object.keys(s.toolResults ?? {}).length ? JSON.stringify(s.toolResults, null, 2) : ""}></textarea>
          <p class="hint" id="tools-hint">What each function answers in a test; a function without one answers {"ok": true}.</p>
          ${this.messages("toolResults")}
          <label class="inline"><input type="checkbox" name="useRealTools" .checked=${s?.useRealTools ?? false} />
            Run bookings and webhook tools for real (a hand-off never runs)</label>
          <label for="variables">Prompt variables (JSON)</label>
          <textarea id="variables" name="variables" aria-describedby=${this.described("variables")}
            placeholder='{ "customer_name": "Ada" }'
            .value=${s && Object.keys(s.variables ?? {}).length ? JSON.stringify(s.variables, null, 2) : ""}></textarea>
          ${this.messages("variables")}
        </fieldset>
        ${
          s?.expectedReplies.length
            ? html`<details><summary>Recorded answers (${s.expectedReplies.length})</summary>
                <ol>${s.expectedReplies.map((reply) => html`<li>${reply}</li>`)}</ol></details>`
            : nothing
        }
        ${formMessage(this.errors)}
        ${this.saved ? html`<p role="status" class="ok">Saved.</p>` : nothing}
        <div class="row">
          <button class="primary" type="submit">${s ? "Save scenario" : "Create scenario"}</button>
          ${s ? html`<button class="danger" type="button" @click=${this.deleteScenario}>Delete scenario</button>` : nothing}
        </div>
      </form>`;
  }

  private renderCheck(check: CheckRow, index: number) {
    const id = (field: string) => `check-${index}-${field}`;
    const text = (field: string, label: string, type = "text") => html`
      <label for=${id(field)}>${label}</label>
      <input id=${id(field)} type=${type} .value=${live(String(check[field] ?? ""))}
        @input=${(event: Event) => {
          const value = (event.target as HTMLInputElement).value;
          this.setCheck(index, { [field]: type === "number" ? Number(value) : value });
        }} />`;
    const label = CHECK_KINDS.find(([kind]) => kind === check.kind)?.[1] ?? check.kind;
    let fields: unknown = nothing;
    switch (check.kind) {
      case "transcript_contains":
      case "transcript_excludes":
        fields = html`${text("phrase", "Phrase")}
          <label for=${id("speaker")}>Said by</label>
          <select id=${id("speaker")} .value=${live(String(check.speaker ?? "assistant"))}
            @change=${(event: Event) => this.setCheck(index, { speaker: (event.target as HTMLSelectElement).value })}>
            <option value="assistant">the assistant</option><option value="customer">the customer</option><option value="any">anyone</option>
          </select>`;
        break;
      case "function_called":
        fields = html`${text("name", "Function name")}
          <label for=${id("arguments")}>With arguments (JSON, optional)</label>
          <input id=${id("arguments")} placeholder='{ "order_id": "42" }'
            .value=${live(typeof check.arguments === "string" ? check.arguments : check.arguments ? JSON.stringify(check.arguments) : "")}
            @input=${(event: Event) => this.setCheck(index, { arguments: (event.target as HTMLInputElement).value })} />`;
        break;
      case "function_not_called":
        fields = text("name", "Function name");
        break;
      case "ended_by":
        fields = html`<label for=${id("by")}>Ended by</label>
          <select id=${id("by")} .value=${live(String(check.by ?? "customer"))}
            @change=${(event: Event) => this.setCheck(index, { by: (event.target as HTMLSelectElement).value })}>
            <option value="customer">the customer (nothing more to say)</option><option value="handoff">a hand-off</option>
            <option value="turn_limit">the turn limit</option>
            <option value="assistant">the assistant hanging up (phone)</option>
            <option value="transferred">a transfer (phone)</option>
          </select>`;
        break;
      case "evaluation_equals":
        fields = html`${text("field", "Evaluation field")}
          <label for=${id("value")}>Value (true, false and numbers are read as such)</label>
          <input id=${id("value")} .value=${live(String(check.value ?? ""))}
            @input=${(event: Event) => this.setCheck(index, { value: readValue((event.target as HTMLInputElement).value) })} />`;
        break;
      case "latency_under":
        fields = text("ms", "Milliseconds", "number");
        break;
    }
    return html`<fieldset class="check"><legend>Check ${index + 1}: ${label}</legend>
      ${fields}
      <p><button type="button" class="danger" aria-label="Remove check ${index + 1}"
        @click=${() => {
          this.checks = this.checks.filter((_, i) => i !== index);
        }}>Remove</button></p>
    </fieldset>`;
  }

  static override styles = [...Screen.styles, testStyles];
}
