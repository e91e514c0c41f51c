import { html, LitElement, nothing, type PropertyDeclarations } from "lit";
import { ApiError, type ConsoleApi, type FieldErrors } from "./api/client.ts";
import { shared, tokens } from "./styles.ts";

/** What every screen gets from the signed-in app: the API client and who is signed in. */
export interface Session {
  api: ConsoleApi;
  email: string;
  isOperator: boolean;
}

let current: Session | null = null;

export function setSession(session: Session | null): void {
  current = session;
}

/**
 * A screen of the signed-in console. It owns its subscriptions: `track` registers an unsubscribe
 * function that runs when the screen leaves the page, so no socket subscription outlives its view.
 */
export class Screen extends LitElement {
  static override styles = [tokens, shared];
  #cleanups: (() => void)[] = [];

  get api(): ConsoleApi {
    if (!current) throw new Error("No session.");
    return current.api;
  }

  get session(): Session {
    if (!current) throw new Error("No session.");
    return current;
  }

  /**
   * Runs a load whose failure has no form to show it: the app shows it in a banner. A refused
   * session needs no message, since the app is already back at sign-in.
   */
  run(task: Promise<unknown>): void {
    task.catch((error: unknown) => {
      if (error instanceof ApiError && error.code === "UNAUTHENTICATED") return;
      this.dispatchEvent(
        new CustomEvent("vx-failure", {
          detail: { message: error instanceof Error ? error.message : String(error) },
          bubbles: true,
          composed: true,
        }),
      );
    });
  }

  track(unsubscribe: () => void): void {
    this.#cleanups.push(unsubscribe);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    for (const cleanup of this.#cleanups.splice(0)) cleanup();
  }
}

/** Where a page of a list sits, as every paged query answers it. */
export interface PageInfo {
  currentPage: number;
  lastPage: number;
  total: number;
}

export const loading = html`<p role="status">Loading…</p>`;

/** An empty list's message: what is missing, then what to do next (often a link to do it). */
export function emptyState(what: string, next: unknown) {
  return html`<p class="empty" data-testid="empty-state"><strong>${what}</strong> ${next}</p>`;
}

/** "12 calls · page 1 of 2" (`noun` ["call", "calls"]) with Previous and Next, which call `go` with the page. */
export function pager(info: PageInfo, noun: [one: string, many: string], go: (page: number) => void) {
  return html`<p class="row muted">${info.total} ${info.total === 1 ? noun[0] : noun[1]} · page ${info.currentPage} of ${info.lastPage}
    <button ?disabled=${info.currentPage <= 1} @click=${() => go(info.currentPage - 1)}>Previous</button>
    <button ?disabled=${info.currentPage >= info.lastPage} @click=${() => go(info.currentPage + 1)}>Next</button></p>`;
}

/**
 * A screen built around one thing it loads (a list page, a record): `data` is null until the first
 * load, a failed load shows its message in place (`failure`), and `errors` holds the messages of the
 * screen's form. Subclasses say what to load (`fetch`) and show it with `loaded`.
 */
export abstract class DataScreen<Data> extends Screen {
  static override properties: PropertyDeclarations = {
    data: { state: true },
    failure: { state: true },
    errors: { state: true },
  };
  declare data: Data | null;
  declare failure: ApiError | null;
  declare errors: FormErrors;
  /** The page last asked for, reloaded after a change. */
  protected page = 1;

  constructor() {
    super();
    this.data = null;
    this.failure = null;
    this.errors = noErrors;
  }

  protected abstract fetch(page: number): Promise<Data>;

  override connectedCallback(): void {
    super.connectedCallback();
    void this.load();
  }

  /** Loads page `page` (or the current one again); a refused session needs no message, sign-in shows. */
  protected async load(page = this.page): Promise<void> {
    try {
      this.data = await this.fetch(page);
      this.page = page;
      this.failure = null;
    } catch (error) {
      if (error instanceof ApiError && error.code === "UNAUTHENTICATED") return;
      this.failure =
        error instanceof ApiError
          ? error
          : new ApiError(String((error as Error)?.message ?? error), "UNKNOWN");
    }
  }

  /**
   * Runs a form's action: on success the form is cleared, its messages too, and the data reloaded; a
   * refusal puts the server's messages under the form's fields.
   */
  protected async submit(event: SubmitEvent, action: (data: FormData) => Promise<unknown>): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    try {
      await action(new FormData(form));
      this.errors = noErrors;
      form.reset();
      await this.load();
    } catch (error) {
      this.errors = formErrors(error);
    }
  }

  /** Runs a button's action, then reloads; a refusal shows as the form message. */
  protected async act(action: () => Promise<unknown>): Promise<void> {
    try {
      await action();
      await this.load();
    } catch (error) {
      this.errors = formErrors(error);
    }
  }

  /** The failed load's message, "Loading…", or `content` of the data. */
  protected loaded(content: (data: Data) => unknown) {
    if (this.failure) return html`<p class="error" role="alert">${this.failure.message}</p>`;
    return this.data === null ? loading : content(this.data);
  }
}

/** The messages of a failed mutation: per field, and the rest as one line. */
export interface FormErrors {
  fields: FieldErrors;
  message: string | null;
}

export const noErrors: FormErrors = { fields: {}, message: null };

export function formErrors(error: unknown): FormErrors {
  if (error instanceof ApiError) {
    return Object.keys(error.fields).length > 0
      ? { fields: error.fields, message: "Some fields need attention." }
      : { fields: {}, message: error.message };
  }
  return { fields: {}, message: error instanceof Error ? error.message : String(error) };
}

/** The messages for `field`, placed under its control and named by its aria-describedby. */
export function fieldError(errors: FormErrors, field: string) {
  const messages = errors.fields[field];
  return messages?.length
    ? html`<p class="field-error" id="error-${field}" role="alert">${messages.join(" ")}</p>`
    : nothing;
}

export function describedBy(errors: FormErrors, field: string): string | typeof nothing {
  return errors.fields[field]?.length ? `error-${field}` : nothing;
}

export function formMessage(errors: FormErrors) {
  return errors.message ? html`<p class="error" role="alert">${errors.message}</p>` : nothing;
}

const DOLLARS = new Intl.NumberFormat("en-US", {
  style: "currency",
  currency: "USD",
  minimumFractionDigits: 2,
  maximumFractionDigits: 4,
});

/**
 * An amount of the account's currency (US dollars) as people read money: "$10.00", "-$0.10". Two decimals,
 * and up to four only for a sub-cent charge (a text segment, a second of a call), which two would show as $0.00.
 */
export function money(value: string | null | undefined): string {
  if (value === null || value === undefined || value === "") return "—";
  return DOLLARS.format(Number(value));
}

export function formatDate(value: string | null | undefined): string {
  return value ? new Date(value).toLocaleString() : "—";
}
