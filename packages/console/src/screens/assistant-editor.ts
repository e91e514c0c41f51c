import { css, html, nothing, type TemplateResult } from "lit";
import { keyed } from "lit/directives/keyed.js";
import {
  AppointmentTypesQuery,
  AssistantCalendarQuery,
  AssistantChoicesQuery,
  AssistantDefaultsQuery,
  AssistantQuery,
  CalendarConnectionsQuery,
  CreateAssistantMutation,
  DeleteAssistantMutation,
  SendTestMessageMutation,
  StartTestConversationMutation,
  UpdateAssistantMutation,
} from "../api/operations.ts";
import type {
  ConsoleAppointmentTypesQuery,
  ConsoleAssistantChoicesQuery,
  ConsoleAssistantDefaultsQuery,
  ConsoleAssistantQuery,
  ConsoleCalendarConnectionsQuery,
} from "../generated/graphql.ts";
import { href, navigate } from "../router.ts";
import {
  describedBy,
  type FormErrors,
  fieldError,
  formErrors,
  formMessage,
  loading,
  noErrors,
  Screen,
} from "../screen.ts";
import { calendarConnectionStatus, callStatus } from "../status-words.ts";

type Kind =
  | "text"
  | "textarea"
  | "int"
  | "float"
  | "decimal"
  | "bool"
  | "json"
  | "lines"
  | "color"
  | { options: string[] }
  /** Several of these may be ticked: the value is the list of those ticked. */
  | { choices: { value: string; label: string }[] };

interface Field {
  key: string;
  label: string;
  kind: Kind;
  hint?: string;
}

type Values = Record<string, unknown>;

/** What the assistant may book: the account's appointment types and which of them are ticked. */
type CalendarChoices =
  | {
      types: ConsoleAppointmentTypesQuery["appointmentTypes"];
      connections: ConsoleCalendarConnectionsQuery["calendarConnections"];
      selected: number[];
    }
  | { error: string };

/** Settings grouped the way a person thinks about an assistant, not the way the API lists them. */
const GROUPS: { title: string; fields: Field[] }[] = [
  {
    title: "Prompt and greeting",
    fields: [
      { key: "name", label: "Name", kind: "text" },
      { key: "type", label: "Handles", kind: { options: ["inbound", "outbound", "web"] } },
      { key: "status", label: "Status", kind: { options: ["active", "inactive"] } },
      { key: "systemPrompt", label: "System prompt", kind: "textarea" },
      {
        key: "initialMessage",
        label: "Greeting",
        kind: "text",
        hint: "The first message of every chat and call.",
      },
      { key: "language", label: "Language code", kind: "text", hint: "e.g. en-US" },
      { key: "timezone", label: "Time zone", kind: "text", hint: "IANA, e.g. Europe/Paris" },
      { key: "llmTemperature", label: "Temperature", kind: "decimal" },
    ],
  },
  {
    title: "Voice and speech",
    fields: [
      { key: "mode", label: "Engine", kind: { options: ["pipeline", "multimodal", "dualplex"] } },
      { key: "voiceId", label: "Voice", kind: "int" },
      { key: "speechSpeed", label: "Speech speed", kind: "decimal" },
      { key: "voiceStability", label: "Voice stability", kind: "decimal" },
      { key: "voiceSimilarity", label: "Voice similarity", kind: "decimal" },
      {
        key: "ambientSound",
        label: "Ambient sound",
        kind: { options: ["none", "office", "cafe", "street", "call_center"] },
      },
      { key: "ambientSoundVolume", label: "Ambient volume", kind: "decimal" },
      { key: "enableNoiseCancellation", label: "Noise cancellation", kind: "bool" },
    ],
  },
  {
    title: "Call behaviour",
    fields: [
      { key: "maxDuration", label: "Maximum duration (seconds)", kind: "int" },
      { key: "maxSilenceDuration", label: "Maximum silence (seconds)", kind: "int" },
      { key: "waitForCustomer", label: "Wait for the customer to speak first", kind: "bool" },
      { key: "allowInterruptions", label: "Allow interruptions", kind: "bool" },
      { key: "interruptSensitivity", label: "Interruption sensitivity", kind: "float" },
      { key: "minInterruptWords", label: "Words before an interruption", kind: "int" },
      {
        key: "endpointType",
        label: "End of turn detection",
        kind: { options: ["vad", "silero", "semantic"] },
      },
      { key: "endpointSensitivity", label: "End of turn sensitivity", kind: "float" },
      { key: "reengagementInterval", label: "Re-engage after (seconds)", kind: "int" },
      { key: "endCallOnVoicemail", label: "Hang up on voicemail", kind: "bool" },
      { key: "record", label: "Record calls", kind: "bool" },
      { key: "phoneNumberId", label: "Phone number", kind: "int" },
    ],
  },
  {
    title: "Knowledge and tools",
    fields: [
      { key: "knowledgebaseId", label: "Knowledge base", kind: "int" },
      {
        key: "knowledgebaseMode",
        label: "Knowledge mode",
        kind: { options: ["hybrid", "semantic", "keyword", "tool"] },
      },
      { key: "tools", label: "Tools (JSON)", kind: "json" },
      { key: "variables", label: "Variables (JSON)", kind: "json" },
    ],
  },
  {
    title: "Post-call evaluation",
    fields: [
      { key: "postCallEvaluation", label: "Evaluate calls", kind: "bool" },
      { key: "postCallSchema", label: "Evaluation schema (JSON)", kind: "json" },
    ],
  },
  {
    title: "Webhooks",
    fields: [
      { key: "webhookUrl", label: "Call webhook URL", kind: "text" },
      { key: "isWebhookActive", label: "Send the call webhook", kind: "bool" },
      { key: "sendWebhookOnlyOnCompleted", label: "Only for completed calls", kind: "bool" },
      { key: "includeRecordingInWebhook", label: "Include the recording", kind: "bool" },
      { key: "inboundWebhookUrl", label: "Inbound webhook URL", kind: "text" },
    ],
  },
  {
    title: "Widget",
    fields: [
      { key: "widgetSettings.theme", label: "Theme", kind: { options: ["light", "dark"] } },
      { key: "widgetSettings.color", label: "Colour", kind: "color" },
      {
        key: "widgetSettings.position",
        label: "Position",
        kind: { options: ["bottom-right", "bottom-left"] },
      },
      { key: "widgetSettings.voice", label: "Calls from the widget (voice)", kind: "bool" },
      {
        key: "allowedOrigins",
        label: "Allowed websites",
        kind: "lines",
        hint: "One origin a line, e.g. https://shop.example; empty allows any.",
      },
    ],
  },
  {
    title: "Privacy",
    fields: [
      {
        key: "redactPii",
        label: "Redact from transcripts, messages and webhooks",
        kind: {
          choices: [
            { value: "card_number", label: "Card numbers" },
            { value: "bank_account", label: "Bank accounts and IBANs" },
            { value: "national_id", label: "National identifiers" },
            { value: "email", label: "Email addresses" },
            { value: "phone_number", label: "Phone numbers" },
            { value: "date_of_birth", label: "Dates of birth" },
            { value: "street_address", label: "Street addresses" },
          ],
        },
        hint: "The assistant still hears them during the conversation; what is stored and sent on shows [card number], [email], ...",
      },
      { key: "redactRecordings", label: "Silence redacted turns in recordings", kind: "bool" },
    ],
  },
];

/** Optional settings that an empty control clears (null); other empty controls keep the current value. */
const CLEARABLE = new Set([
  "voiceId",
  "knowledgebaseId",
  "phoneNumberId",
  "webhookUrl",
  "inboundWebhookUrl",
  "language",
]);

function flatten(
  assistant: ConsoleAssistantQuery["assistant"] | ConsoleAssistantDefaultsQuery["assistantDefaults"],
): Values {
  const values: Values = { ...assistant };
  const widget = (assistant.widgetSettings ?? {}) as Record<string, unknown>;
  for (const key of ["theme", "color", "position", "voice"]) values[`widgetSettings.${key}`] = widget[key];
  return values;
}

/**
 * The signing secret a createAssistant returned, for the editor it opens next: the server shows it
 * once, and the navigation to the new assistant must not lose it.
 */
let secretForNextEditor: string | null = null;

/** Loads the widget's embed script from the server once, so the preview is the real widget. */
let widgetScript: Promise<unknown> | null = null;
function loadWidget(apiBase: string): Promise<unknown> {
  widgetScript ??= import(/* @vite-ignore */ `${apiBase}/widget/voxgate-chat.js`).catch((error) => {
    widgetScript = null;
    throw error;
  });
  return widgetScript;
}

/** Creates or edits an assistant; an existing one also gets the widget preview and a test chat. */
export class VxAssistantEditor extends Screen {
  static override properties = {
    assistantId: { attribute: false },
    values: { state: true },
    choices: { state: true },
    errors: { state: true },
    saved: { state: true },
    busy: { state: true },
    chat: { state: true },
    widgetReady: { state: true },
    signingSecret: { state: true },
    testCall: { state: true },
    calendar: { state: true },
  };
  declare assistantId: number | null;
  declare values: Values | null;
  declare choices: ConsoleAssistantChoicesQuery | null;
  declare errors: FormErrors;
  declare saved: boolean;
  declare busy: boolean;
  declare chat: {
    conversationId: string | null;
    lines: { role: string; content: string }[];
    error: string | null;
  };
  declare widgetReady: boolean;
  declare signingSecret: string | null;
  /** `reason`: the server's words for a call refused before it started. */
  declare testCall: { callId: number | null; state: string; reason?: string } | null;
  /** Null while loading (and for a new assistant). */
  declare calendar: CalendarChoices | null;

  constructor() {
    super();
    this.assistantId = null;
    this.values = null;
    this.choices = null;
    this.errors = noErrors;
    this.saved = false;
    this.busy = false;
    this.chat = { conversationId: null, lines: [], error: null };
    this.widgetReady = false;
    this.signingSecret = secretForNextEditor;
    secretForNextEditor = null;
    this.testCall = null;
    this.calendar = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.run(this.load());
    if (this.assistantId !== null) void this.loadCalendar(this.assistantId);
  }

  /** Apart from the settings: a failure here leaves the rest of the editor working. */
  private async loadCalendar(id: number): Promise<void> {
    try {
      const [{ appointmentTypes }, { calendarConnections }, { assistant }] = await Promise.all([
        this.api.request(AppointmentTypesQuery),
        this.api.request(CalendarConnectionsQuery),
        this.api.request(AssistantCalendarQuery, { id }),
      ]);
      this.calendar = {
        types: appointmentTypes,
        connections: calendarConnections,
        selected: assistant.appointmentTypeIds,
      };
    } catch (error) {
      this.calendar = { error: (error as Error).message };
    }
  }

  private async load(): Promise<void> {
    try {
      this.choices = await this.api.request(AssistantChoicesQuery);
      // A new assistant starts from the server's defaults, so the form shows what creating it gives.
      this.values = flatten(
        this.assistantId === null
          ? (await this.api.request(AssistantDefaultsQuery)).assistantDefaults
          : (await this.api.request(AssistantQuery, { id: this.assistantId })).assistant,
      );
      if (this.assistantId !== null) {
        loadWidget(this.api.apiBase).then(
          () => {
            this.widgetReady = true;
          },
          () => {},
        );
      }
    } catch (error) {
      this.errors = formErrors(error);
    }
  }

  /** The form's values as the API's input: numbers, booleans and JSON parsed, empty optional text null. */
  private toInput(form: HTMLFormElement): { input: Values; local: FormErrors } {
    const input: Values = {};
    const local: Record<string, string[]> = {};
    const widget: Record<string, unknown> = {};
    for (const group of GROUPS) {
      for (const field of group.fields) {
        if (typeof field.kind === "object" && "choices" in field.kind) {
          input[field.key] = new FormData(form).getAll(field.key);
          continue;
        }
        const control = form.elements.namedItem(field.key) as HTMLInputElement | null;
        if (!control) continue;
        const raw = control.value;
        let value: unknown = raw;
        if (field.kind === "bool") value = control.checked;
        else if (field.kind === "int" || field.kind === "float") {
          value =
            raw.trim() === ""
              ? this.assistantId !== null && CLEARABLE.has(field.key)
                ? null
                : undefined
              : Number(raw);
          if (typeof value === "number" && Number.isNaN(value))
            local[field.key] = [`The ${field.label.toLowerCase()} must be a number.`];
        } else if (field.kind === "decimal") value = raw.trim() === "" ? undefined : raw.trim();
        else if (field.kind === "json") {
          try {
            value = raw.trim() === "" ? undefined : JSON.parse(raw);
          } catch {
            local[field.key] = [
              `The ${field.label.replace(" (JSON)", "").toLowerCase()} must be valid JSON.`,
            ];
          }
        } else if (field.kind === "lines")
          value = raw
            .split("\n")
            .map((line) => line.trim())
            .filter(Boolean);
        // An emptied optional link is cleared on an existing assistant, and simply left out of a new one.
        else if (raw === "" && !["name", "systemPrompt", "initialMessage"].includes(field.key))
          value = this.assistantId !== null && CLEARABLE.has(field.key) ? null : undefined;
        if (field.key.startsWith("widgetSettings."))
          widget[field.key.slice("widgetSettings.".length)] = value;
        else if (value !== undefined) input[field.key] = value;
      }
    }
    input.widgetSettings = widget;
    // Only what was shown can be saved: a list that failed to load is left as it is.
    if (this.calendar && "selected" in this.calendar)
      input.appointmentTypeIds = new FormData(form).getAll("appointmentTypeIds").map(Number);
    return {
      input,
      local: Object.keys(local).length ? { fields: local, message: "Some fields need attention." } : noErrors,
    };
  }

  private async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const { input, local } = this.toInput(event.target as HTMLFormElement);
    this.errors = local;
    this.saved = false;
    if (local.message) return;
    this.busy = true;
    try {
      if (this.assistantId === null) {
        const { createAssistant } = await this.api.request(CreateAssistantMutation, {
          input: input as never,
        });
        secretForNextEditor = createAssistant.webhookSigningSecret ?? null;
        navigate("assistants", createAssistant.id);
      } else {
        const { updateAssistant } = await this.api.request(UpdateAssistantMutation, {
          id: this.assistantId,
          input: input as never,
        });
        this.signingSecret = updateAssistant.webhookSigningSecret ?? this.signingSecret;
        this.values = { ...this.values, ...flattenInput(input) };
        if (this.calendar && "selected" in this.calendar && Array.isArray(input.appointmentTypeIds))
          this.calendar = { ...this.calendar, selected: input.appointmentTypeIds as number[] };
        this.saved = true;
      }
    } catch (error) {
      this.errors = formErrors(error);
    } finally {
      this.busy = false;
    }
  }

  private async deleteItem(): Promise<void> {
    if (this.assistantId === null || !confirm("Delete this assistant? Its calls stay in the history."))
      return;
    await this.api.request(DeleteAssistantMutation, { id: this.assistantId });
    navigate("assistants");
  }

  /** Keeps the preview in step with the appearance fields while they are edited. */
  private onInput(event: Event): void {
    const target = event.target as HTMLInputElement;
    if (target.name.startsWith("widgetSettings.") && this.values) {
      this.values = { ...this.values, [target.name]: target.value };
    }
  }

  override render() {
    const values = this.values;
    if (!values) return html`${formMessage(this.errors)}${loading}`;
    const isNew = this.assistantId === null;
    return html`
      <p><a href=${href("assistants")}>← Assistants</a></p>
      <h1>${isNew ? "New assistant" : values.name}</h1>
      <vx-shown-once .value=${this.signingSecret} .heading=${"Copy the account's webhook signing secret now: it is shown only once."}
        .detail=${"It signs every webhook of the account's assistants (Standard Webhooks). Rotate it in Webhooks."}
        @vx-dismiss=${() => {
          this.signingSecret = null;
        }}></vx-shown-once>
      <div class="editor">
        <form novalidate @submit=${this.save} @input=${this.onInput} aria-label="Assistant settings">
          ${GROUPS.map(
            (group) => html`<fieldset><legend>${group.title}</legend>
              <div class="grid">${group.fields.map((field) => this.renderField(field, values))}</div>
            </fieldset>`,
          )}
          ${this.renderCalendar(isNew)}
          ${formMessage(this.errors)}
          ${this.saved ? html`<p class="ok" role="status">Saved.</p>` : nothing}
          <p class="row">
            <button class="primary" type="submit" ?disabled=${this.busy}>${isNew ? "Create assistant" : "Save changes"}</button>
            ${isNew ? nothing : html`<button class="danger" type="button" @click=${this.deleteItem}>Delete</button>`}
          </p>
        </form>
        ${isNew ? nothing : this.renderSide(values)}
      </div>
    `;
  }

  private renderCalendar(isNew: boolean) {
    const calendar = this.calendar;
    let content: unknown;
    if (isNew) content = html`<p class="hint">Create the assistant first, then choose what it may book.</p>`;
    else if (calendar === null) content = loading;
    else if ("error" in calendar)
      content = html`<p class="error">The calendar settings could not be loaded: ${calendar.error}</p>`;
    else if (calendar.types.length === 0)
      content = html`<p class="muted">No appointment types yet: define them in <a href=${href("calendars")}>Calendars</a>.</p>`;
    else
      content = html`<p class="hint" id="calendar-hint">Ticked types are offered to the model as booking functions
        (check availability, book, find, reschedule, cancel). Types are set up in <a href=${href("calendars")}>Calendars</a>.</p>
        ${calendar.types.map((type) => {
          const connection = calendar.connections.find((c) => c.id === type.connectionId);
          return html`<label class="inline"><input type="checkbox" name="appointmentTypeIds" value=${type.id}
              .checked=${calendar.selected.includes(type.id)} aria-describedby="calendar-hint" />
            ${type.name} (${type.durationMinutes} min, ${type.timezone}${connection ? `, ${connection.name}` : ""})
            ${connection?.status === "broken" ? html`<span class="badge broken">calendar ${calendarConnectionStatus(connection.status).toLowerCase()}</span>` : nothing}</label>`;
        })}
        ${fieldError(this.errors, "appointmentTypeIds")}`;
    return html`<fieldset><legend>Calendar</legend>${content}</fieldset>`;
  }

  private renderField(field: Field, values: Values): TemplateResult {
    const id = `f-${field.key.replace(".", "-")}`;
    const value = values[field.key];
    const described = describedBy(this.errors, field.key);
    const hint = field.hint ? html`<span class="hint">${field.hint}</span>` : nothing;
    const error = fieldError(this.errors, field.key);
    const invalid = this.errors.fields[field.key] ? "true" : "false";
    if (field.kind === "bool") {
      return html`<div><label class="inline" for=${id}>
        <input id=${id} name=${field.key} type="checkbox" .checked=${value === true} aria-invalid=${invalid} aria-describedby=${described} />
        ${field.label}</label>${error}</div>`;
    }
    if (typeof field.kind === "object" && "choices" in field.kind) {
      const ticked = (value as string[] | undefined) ?? [];
      return html`<fieldset style="grid-column: 1 / -1" aria-describedby=${described}>
        <legend>${field.label}</legend>
        ${field.kind.choices.map(
          (
            choice,
          ) => html`<label class="inline"><input type="checkbox" name=${field.key} value=${choice.value}
            .checked=${ticked.includes(choice.value)} />${choice.label}</label>`,
        )}
        ${hint}${error}</fieldset>`;
    }
    const label = html`<label for=${id}>${field.label}</label>`;
    const wide = field.kind === "textarea" || field.kind === "json" || field.kind === "lines";
    let control: TemplateResult;
    if (typeof field.kind === "object" && "options" in field.kind) {
      control = html`<select id=${id} name=${field.key} aria-invalid=${invalid} aria-describedby=${described}>
        ${field.kind.options.map((option) => html`<option .selected=${value === option} value=${option}>${option}</option>`)}
      </select>`;
    } else if (field.key === "voiceId" || field.key === "knowledgebaseId" || field.key === "phoneNumberId") {
      const options =
        field.key === "voiceId"
          ? (this.choices?.voices ?? []).map((v) => [v.id, `${v.name} (${v.gender})`] as const)
          : field.key === "knowledgebaseId"
            ? (this.choices?.knowledgebases ?? []).map((k) => [k.id, k.name] as const)
            : (this.choices?.phoneNumbers ?? []).map((p) => [p.id, `${p.phoneNumber} ${p.label}`] as const);
      control = html`<select id=${id} name=${field.key} aria-invalid=${invalid} aria-describedby=${described}>
        <option value="">None</option>
        ${options.map(([optionId, name]) => html`<option .selected=${value === optionId} value=${optionId}>${name}</option>`)}
      </select>`;
    } else if (wide) {
      const text =
        field.kind === "json"
          ? JSON.stringify(value ?? (field.key === "variables" ? {} : []), null, 2)
          : field.kind === "lines"
            ? ((value as string[] | undefined) ?? []).join("\n")
            : String(value ?? "");
      control = html`<textarea id=${id} name=${field.key} .value=${text} aria-invalid=${invalid} aria-describedby=${described}></textarea>`;
    } else {
      const type =
        field.kind === "color" ? "color" : field.kind === "int" || field.kind === "float" ? "number" : "text";
      control = html`<input id=${id} name=${field.key} type=${type} step=${field.kind === "float" ? "any" : "1"}
        .value=${value === null || value === undefined ? "" : String(value)} aria-invalid=${invalid} aria-describedby=${described} />`;
    }
    return html`<div style=${wide ? "grid-column: 1 / -1" : ""}>${label}${control}${hint}${error}</div>`;
  }

  private renderSide(values: Values) {
    const voice = values["widgetSettings.voice"] === true;
    return html`<aside aria-label="Preview and test">
      <h2>Widget preview</h2>
      <div class="preview" part="preview">
        ${
          this.widgetReady
            ? // A new element when voice is saved on or off: the widget reads the assistant once.
              keyed(
                voice,
                html`<voxgate-chat
                  assistant=${String(values.uuid)}
                  api-base=${this.api.apiBase}
                  theme=${String(values["widgetSettings.theme"] ?? "light")}
                  color=${String(values["widgetSettings.color"] ?? "#4f46e5")}
                  position=${String(values["widgetSettings.position"] ?? "bottom-right")}
                  style="--voxgate-z-index: 1"
                  @voxgate-call-start=${(event: CustomEvent<{ callId: number }>) => {
                    this.testCall = { callId: event.detail.callId, state: "live" };
                  }}
                  @voxgate-error=${(event: CustomEvent<{ message: string }>) => {
                    // Refused before it started (e.g. no speech service): the server's reason, here.
                    if (this.testCall?.state === "connecting")
                      this.testCall = { callId: null, state: "not started", reason: event.detail.message };
                  }}
                  @voxgate-call-end=${(event: CustomEvent<{ callId: number; status: string | null }>) => {
                    this.testCall = {
                      callId: event.detail.callId,
                      state: event.detail.status ? callStatus(event.detail.status) : "failed",
                    };
                  }}
                ></voxgate-chat>`,
              )
            : html`<p class="muted">Loading the widget…</p>`
        }
      </div>
      <h2>Test call</h2>
      <p class="hint">Calls the assistant from this browser with your microphone, through the preview above, which
        shows the call and its transcript as it happens. A test call is a web call like a visitor's: it is recorded
        and billed by the minute (speech recognition and synthesis cost per minute, unlike a test chat).</p>
      ${
        voice
          ? html`<p class="row">
              <button type="button" ?disabled=${!this.widgetReady || this.testCall?.state === "connecting" || this.testCall?.state === "live"}
                @click=${this.startTestCall}>Test call</button>
              ${
                this.testCall?.state === "live"
                  ? html`<button type="button" class="danger" @click=${() => this.previewWidget?.hangUp()}>End call</button>`
                  : nothing
              }
              <span role="status" aria-live="polite" data-testid="test-call-state">${
                this.testCall
                  ? html`${this.testCall.callId === null ? "Call" : html`<a href=${href("calls", this.testCall.callId)}>Call ${this.testCall.callId}</a>`}: ${
                      this.testCall.state === "live" ? "live, speak now" : this.testCall.state
                    }${this.testCall.reason ? html`. <span class="error">${this.testCall.reason}</span>` : nothing}`
                  : nothing
              }</span></p>`
          : html`<p class="muted">Tick “Calls from the widget (voice)” and save to make a test call.</p>`
      }
      <p class="hint">Embed: <code>&lt;script type="module" src="${this.api.apiBase}/widget/voxgate-chat.js"&gt;&lt;/script&gt;
        &lt;voxgate-chat assistant="${String(values.uuid)}"&gt;&lt;/voxgate-chat&gt;</code></p>
      <h2>Try it</h2>
      <p class="hint">Test conversations are free and are not charged.</p>
      <div class="chat" role="log" aria-live="polite" aria-label="Test conversation">
        ${this.chat.lines.map((line) => html`<p class="line ${line.role}"><strong>${line.role === "user" ? "You" : "Assistant"}:</strong> ${line.content}</p>`)}
      </div>
      ${this.chat.error ? html`<p class="error" role="alert">${this.chat.error}</p>` : nothing}
      <form class="row" @submit=${this.sendTest}>
        <label class="sr-only" for="try">Test message</label>
        <input id="try" name="message" autocomplete="off" placeholder="Write as a customer" style="flex:1" />
        <button type="submit">Send</button>
      </form>
    </aside>`;
  }

  private get previewWidget() {
    return this.renderRoot.querySelector("voxgate-chat") as
      | (HTMLElement & { callAssistant(): Promise<void>; hangUp(): void })
      | null;
  }

  /** Starts a web call through the preview widget: its own voice code, loaded when first needed. */
  private async startTestCall(): Promise<void> {
    const widget = this.previewWidget;
    if (!widget) return;
    this.testCall = { callId: null, state: "connecting" };
    await widget.callAssistant();
    // Refused before it started with no reason given (the widget shows why): nothing is running.
    if (this.testCall?.state === "connecting") this.testCall = null;
  }

  private async sendTest(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const message = String(new FormData(form).get("message") ?? "").trim();
    if (!message || this.assistantId === null) return;
    form.reset();
    this.chat = {
      ...this.chat,
      lines: [...this.chat.lines, { role: "user", content: message }],
      error: null,
    };
    try {
      let conversationId = this.chat.conversationId;
      if (!conversationId) {
        conversationId = (
          await this.api.request(StartTestConversationMutation, { assistantId: this.assistantId })
        ).startTestConversation.id;
      }
      const { sendTestMessage } = await this.api.request(SendTestMessageMutation, {
        conversationId,
        message,
      });
      this.chat = {
        conversationId,
        lines: [...this.chat.lines, { role: "assistant", content: sendTestMessage.reply }],
        error: null,
      };
    } catch (error) {
      this.chat = { ...this.chat, error: (error as Error).message };
    }
  }

  static override styles = [
    ...Screen.styles,
    // Preview beside the form on wide screens, below it on narrow ones.
    css`
      .editor { display: flex; flex-wrap: wrap; gap: 1.5rem; align-items: flex-start; }
      .editor form { flex: 2 1 28rem; min-width: 0; }
      .editor aside { flex: 1 1 20rem; min-width: 0; }
      /* The transform makes the widget's fixed position relative to this box. */
      .preview { position: relative; height: 42rem; max-height: 80vh; border: 1px dashed var(--_border); border-radius: var(--_radius); overflow: hidden; transform: translateZ(0); }
      .chat { max-height: 20rem; overflow-y: auto; }
      .line.user { text-align: right; }
      .badge.broken { color: var(--_danger); border-color: var(--_danger); }
    `,
  ];
}

function flattenInput(input: Values): Values {
  const values: Values = { ...input };
  for (const [key, value] of Object.entries((input.widgetSettings ?? {}) as Values))
    values[`widgetSettings.${key}`] = value;
  return values;
}
