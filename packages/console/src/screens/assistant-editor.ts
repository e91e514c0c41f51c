import { css, html, nothing } from "lit";
import type { ConsoleAssistantChoicesQuery } from "../generated/graphql.ts";
import { href, navigate } from "../router.ts";
import { type FormErrors, formErrors, formMessage, loading, noErrors, Screen } from "../screen.ts";
import {
  type CalendarChoices,
  calendarInput,
  loadCalendarChoices,
  renderCalendar,
} from "./assistant-calendar.ts";
import {
  AssistantChoicesQuery,
  AssistantDefaultsQuery,
  AssistantQuery,
  CreateAssistantMutation,
  DeleteAssistantMutation,
  UpdateAssistantMutation,
} from "./assistant-editor.operations.ts";
import { renderField } from "./assistant-field.ts";
import { WidgetPreview } from "./assistant-preview.ts";
import { flatten, flattenInput, GROUPS, settingsInput, type Values } from "./assistant-settings.ts";
import { TestChat } from "./assistant-test-chat.ts";

/**
 * The signing secret a createAssistant returned, for the editor it opens next: the server shows it
 * once, and the navigation to the new assistant must not lose it.
 */
let secretForNextEditor: string | null = null;

/**
 * Creates or edits an assistant; an existing one also gets the widget preview and a test chat. The
 * settings are described in assistant-settings.ts and drawn by assistant-field.ts, what the assistant
 * may book by assistant-calendar.ts; the preview with its test call is assistant-preview.ts, the test
 * chat assistant-test-chat.ts.
 */
export class VxAssistantEditor extends Screen {
  static override properties = {
    assistantId: { attribute: false },
    values: { state: true },
    choices: { state: true },
    errors: { state: true },
    saved: { state: true },
    busy: { state: true },
    signingSecret: { state: true },
    calendar: { state: true },
  };
  declare assistantId: number | null;
  declare values: Values | null;
  declare choices: ConsoleAssistantChoicesQuery | null;
  declare errors: FormErrors;
  declare saved: boolean;
  declare busy: boolean;
  declare signingSecret: string | null;
  /** Null while loading (and for a new assistant). */
  declare calendar: CalendarChoices | null;
  readonly #preview = new WidgetPreview(this);
  readonly #chat = new TestChat(this);

  constructor() {
    super();
    this.assistantId = null;
    this.values = null;
    this.choices = null;
    this.errors = noErrors;
    this.saved = false;
    this.busy = false;
    this.signingSecret = secretForNextEditor;
    secretForNextEditor = null;
    this.calendar = null;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.run(this.load());
    if (this.assistantId !== null) void this.loadCalendar(this.assistantId);
  }

  private async loadCalendar(id: number): Promise<void> {
    this.calendar = await loadCalendarChoices(this.api, id);
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
      if (this.assistantId !== null) this.#preview.load();
    } catch (error) {
      this.errors = formErrors(error);
    }
  }

  private async save(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const { input, local } = settingsInput(form, this.assistantId !== null);
    // Only what was shown can be saved: a list that failed to load is left as it is.
    const appointmentTypeIds = calendarInput(this.calendar, form);
    if (appointmentTypeIds) input.appointmentTypeIds = appointmentTypeIds;
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
        if (this.calendar && "selected" in this.calendar && appointmentTypeIds)
          this.calendar = { ...this.calendar, selected: appointmentTypeIds };
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
              <div class="grid">${group.fields.map((field) => renderField(field, values, this.errors, this.choices))}</div>
            </fieldset>`,
          )}
          ${renderCalendar(isNew, this.calendar, this.errors)}
          ${formMessage(this.errors)}
          ${this.saved ? html`<p class="ok" role="status">Saved.</p>` : nothing}
          <p class="row">
            <button class="primary" type="submit" ?disabled=${this.busy}>${isNew ? "Create assistant" : "Save changes"}</button>
            ${isNew ? nothing : html`<button class="danger" type="button" @click=${this.deleteItem}>Delete</button>`}
          </p>
        </form>
        ${
          isNew
            ? nothing
            : html`<aside aria-label="Preview and test">
              ${this.#preview.render(values)}
              ${this.#chat.render()}
            </aside>`
        }
      </div>
    `;
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
