import { html, LitElement, nothing } from "lit";
import { ApiError, ConsoleApi } from "../api/client.ts";
import type { MemberRole } from "../generated/graphql.ts";
import { describedBy, type FormErrors, fieldError, formErrors, formMessage, noErrors } from "../screen.ts";
import { shared, tokens } from "../styles.ts";
import { AcceptInvitationMutation, InvitationLinkQuery } from "./team.operations.ts";

/** A role in words, as the Team screen and an invitation name it. */
export const ROLE_WORDS: Record<MemberRole, string> = { owner: "Owner", admin: "Admin", agent: "Agent" };

/** `vx-signed-in`: the accept page opened a session (the app keeps it and shows the console). */
export interface SignedInDetail {
  token: string;
  expiresAt: string;
  email: string;
  role: MemberRole;
  isOperator: boolean;
}

/**
 * `#/invite/<token>`, reachable without a session: says what the link is for, then sets the name and
 * password (or only the password for a reset link) and signs in.
 *
 * @fires vx-signed-in - with the new session, once the link is used
 */
export class VxAcceptInvite extends LitElement {
  static override styles = [tokens, shared];
  static override properties = {
    token: { attribute: false },
    apiBase: { attribute: false },
    link: { state: true },
    failure: { state: true },
    errors: { state: true },
    busy: { state: true },
  };
  declare token: string;
  declare apiBase: string;
  declare link: { kind: string; email: string; role: MemberRole; accountName: string } | null;
  declare failure: string | null;
  declare errors: FormErrors;
  declare busy: boolean;

  constructor() {
    super();
    this.token = "";
    this.apiBase = "";
    this.link = null;
    this.failure = null;
    this.errors = noErrors;
    this.busy = false;
  }

  private get api(): ConsoleApi {
    return new ConsoleApi(
      this.apiBase,
      () => null,
      () => {},
    );
  }

  override connectedCallback(): void {
    super.connectedCallback();
    void this.describe();
  }

  private async describe(): Promise<void> {
    try {
      this.link = (await this.api.request(InvitationLinkQuery, { token: this.token })).invitationLink;
    } catch (error) {
      this.failure = error instanceof Error ? error.message : String(error);
    }
  }

  private async accept(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const password = String(data.get("password") ?? "");
    if (password !== String(data.get("confirm") ?? "")) {
      this.errors = { fields: { confirm: ["The two passwords differ."] }, message: null };
      return;
    }
    this.busy = true;
    try {
      const { acceptInvitation } = await this.api.request(AcceptInvitationMutation, {
        input: {
          token: this.token,
          password,
          name: this.link?.kind === "invitation" ? String(data.get("name") ?? "") : null,
        },
      });
      const detail: SignedInDetail = {
        token: acceptInvitation.token,
        expiresAt: acceptInvitation.expiresAt,
        email: acceptInvitation.viewer.email,
        role: acceptInvitation.viewer.role,
        isOperator: acceptInvitation.viewer.account.isOperator,
      };
      this.dispatchEvent(new CustomEvent("vx-signed-in", { detail, bubbles: true, composed: true }));
    } catch (error) {
      if (error instanceof ApiError && error.code === "INVITATION_INVALID") this.failure = error.message;
      else this.errors = formErrors(error);
    } finally {
      this.busy = false;
    }
  }

  override render() {
    const link = this.link;
    return html`<div class="card">
        <h1>${link?.kind === "reset" ? "Set a new password" : "Join Voxgate"}</h1>
        ${this.failure ? html`<p class="error" role="alert">${this.failure}</p><p><a href="#/">Go to sign-in</a></p>` : nothing}
        ${!link && !this.failure ? html`<p role="status">Loading…</p>` : nothing}
        ${link && !this.failure ? this.renderForm(link) : nothing}
      </div>`;
  }

  private renderForm(link: NonNullable<VxAcceptInvite["link"]>) {
    return html`
      <p>${
        link.kind === "reset"
          ? html`Choose a new password for <strong>${link.email}</strong>.`
          : html`You are invited to <strong>${link.accountName}</strong> as ${ROLE_WORDS[link.role].toLowerCase()}, with the email <strong>${link.email}</strong>.`
      }</p>
      <form @submit=${this.accept} novalidate>
        ${
          link.kind === "invitation"
            ? html`<label for="name">Your name</label>
              <input id="name" name="name" autocomplete="name" required aria-describedby=${describedBy(this.errors, "name")} />
              ${fieldError(this.errors, "name")}`
            : nothing
        }
        <input type="hidden" name="username" autocomplete="username" value=${link.email} />
        <label for="password">Password (at least 8 characters)</label>
        <input id="password" name="password" type="password" autocomplete="new-password" required aria-describedby=${describedBy(this.errors, "password")} />
        ${fieldError(this.errors, "password")}
        <label for="confirm">Password again</label>
        <input id="confirm" name="confirm" type="password" autocomplete="new-password" required aria-describedby=${describedBy(this.errors, "confirm")} />
        ${fieldError(this.errors, "confirm")}
        ${formMessage(this.errors)}
        <p><button class="primary" type="submit" ?disabled=${this.busy}>${link.kind === "reset" ? "Set password and sign in" : "Join and sign in"}</button></p>
      </form>`;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "vx-signed-in": CustomEvent<SignedInDetail>;
  }
}
