import { html, LitElement, nothing } from "lit";
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

export function formatDate(value: string | null | undefined): string {
  return value ? new Date(value).toLocaleString() : "—";
}
