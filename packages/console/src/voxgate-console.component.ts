import { html, LitElement, nothing } from "lit";
import { keyed } from "lit/directives/keyed.js";
import { ApiError, ConsoleApi } from "./api/client.ts";
import { LoginMutation, LogoutMutation, ViewerQuery, ViewerRoleQuery } from "./api/operations.ts";
import { href, parseRoute, type Route } from "./router.ts";
import { setSession } from "./screen.ts";
import { type Chunk, chunkOf, ScreenChunks } from "./screen-chunks.ts";
import { clearSession, loadSession, saveSession } from "./session.ts";
import { ShellBanners } from "./voxgate-console.banners.ts";
import { renderNav, renderScreen } from "./voxgate-console.routes.ts";
import { consoleStyles } from "./voxgate-console.styles.ts";

/** `voxgate-console-session`: fired on sign-in (signedIn true) and sign-out or expiry (false). */
export interface VoxgateConsoleSessionDetail {
  signedIn: boolean;
  reason: "sign-in" | "sign-out" | "expired" | "restored";
}

/**
 * The operator console: sign-in, then a navigation and one screen per section.
 *
 * @csspart nav - the section navigation
 * @csspart main - the area holding the current screen
 * @fires voxgate-console-session - when a session starts, is restored, ends or expires
 */
export class VoxgateConsole extends LitElement {
  static override styles = consoleStyles;

  static override properties = {
    apiBase: { attribute: "api-base" },
    email: { state: true },
    route: { state: true },
    signInError: { state: true },
    notice: { state: true },
    busy: { state: true },
    restoring: { state: true },
    isOperator: { state: true },
    failure: { state: true },
    role: { state: true },
  };

  /** Where the Voxgate server is; defaults to the page's own origin (the console is served by it). */
  declare apiBase: string;
  declare email: string | null;
  declare route: Route;
  declare signInError: string | null;
  declare notice: string | null;
  declare busy: boolean;
  declare restoring: boolean;
  declare isOperator: boolean;
  /** A screen's failed load (`vx-failure`), shown until the next navigation. */
  declare failure: string | null;
  /** The signed-in member's role; null until known. */
  declare role: "owner" | "admin" | "agent" | null;

  constructor() {
    super();
    this.apiBase = "";
    this.email = null;
    this.route = parseRoute(location.hash);
    this.signInError = null;
    this.notice = null;
    this.busy = false;
    this.restoring = true;
    this.isOperator = false;
    this.failure = null;
    this.role = null;
    this.addEventListener("vx-signed-in", (event) => {
      const { token, expiresAt, email, role, isOperator } = event.detail;
      saveSession({ token, expiresAt, email });
      this.notice = null;
      this.startSession(email, isOperator);
      this.role = role;
      this.emit(true, "sign-in");
      location.hash = href("inbox");
    });
    this.addEventListener("vx-failure", (event) => {
      this.failure = event.detail.message;
    });
    this.addEventListener("vx-calendars-changed", () => void this.#banners.checkCalendars());
  }

  #api: ConsoleApi | null = null;
  readonly #banners = new ShellBanners(this, () => this.#api);
  /** The screens' chunks, fetched as routes are first visited (screen-chunks.ts). */
  #chunks = new ScreenChunks(() => this.requestUpdate());
  #onHash = () => {
    this.failure = null;
    this.route = parseRoute(location.hash);
    void this.#banners.checkCalendars();
  };

  /**
   * Fetches the chunk of the screen about to show: the invitation page's with or without a session,
   * the others once signed in (the sign-in form needs none).
   */
  protected override willUpdate(): void {
    const chunk = chunkOf(this.route);
    if (chunk && !this.restoring && (this.email || this.route.section === "invite")) this.#chunks.load(chunk);
  }

  private get base(): string {
    return (this.apiBase || location.origin).replace(/\/$/, "");
  }

  override connectedCallback(): void {
    super.connectedCallback();
    addEventListener("hashchange", this.#onHash);
    void this.restore();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    removeEventListener("hashchange", this.#onHash);
    this.#api?.close();
  }

  private startSession(email: string, isOperator: boolean): void {
    this.#api?.close();
    this.#api = new ConsoleApi(
      this.base,
      () => loadSession()?.token ?? null,
      () => this.endSession("expired"),
    );
    // Only hides the admin link: the server refuses a non-operator's admin requests regardless.
    setSession({ api: this.#api, email, isOperator });
    this.email = email;
    this.isOperator = isOperator;
    void this.#banners.checkCalendars();
    void this.#banners.checkModel();
    void this.checkRole();
  }

  private async checkRole(): Promise<void> {
    try {
      this.role = (await this.#api!.request(ViewerRoleQuery)).viewer.role;
    } catch {
      // Signed out meanwhile, or the server is unreachable: the next sign-in asks again.
    }
  }

  private async restore(): Promise<void> {
    const stored = loadSession();
    if (stored) {
      this.startSession(stored.email, false);
      try {
        const { viewer } = await this.#api!.request(ViewerQuery);
        this.startSession(viewer.email, viewer.account.isOperator);
        this.emit(true, "restored");
      } catch (error) {
        if (!(error instanceof ApiError && error.code === "UNAUTHENTICATED")) {
          this.notice = error instanceof Error ? error.message : String(error);
        }
      }
    }
    this.restoring = false;
  }

  private endSession(reason: "sign-out" | "expired"): void {
    if (this.email === null) return;
    clearSession();
    this.#api?.close();
    this.#api = null;
    setSession(null);
    this.email = null;
    this.role = null;
    this.notice =
      reason === "expired" ? "Your session has expired. Please sign in again." : "You are signed out.";
    this.emit(false, reason);
  }

  private emit(signedIn: boolean, reason: VoxgateConsoleSessionDetail["reason"]): void {
    this.dispatchEvent(
      new CustomEvent<VoxgateConsoleSessionDetail>("voxgate-console-session", {
        detail: { signedIn, reason },
        bubbles: true,
        composed: true,
      }),
    );
  }

  private async signIn(event: SubmitEvent): Promise<void> {
    event.preventDefault();
    const form = new FormData(event.target as HTMLFormElement);
    const email = String(form.get("email") ?? "");
    this.busy = true;
    this.signInError = null;
    try {
      const anonymous = new ConsoleApi(
        this.base,
        () => null,
        () => {},
      );
      const { login } = await anonymous.request(LoginMutation, {
        input: { email, password: String(form.get("password") ?? "") },
      });
      saveSession({ token: login.token, expiresAt: login.expiresAt, email: login.viewer.email });
      this.notice = null;
      this.startSession(login.viewer.email, login.viewer.account.isOperator);
      this.emit(true, "sign-in");
    } catch (error) {
      this.signInError =
        error instanceof ApiError && error.code === "INVALID_CREDENTIALS"
          ? "The email or password is not correct."
          : error instanceof Error
            ? error.message
            : String(error);
    } finally {
      this.busy = false;
    }
  }

  private async signOut(): Promise<void> {
    try {
      await this.#api?.request(LogoutMutation);
    } catch {
      // The token is forgotten here whatever the server says; an expired one is already revoked.
    }
    this.endSession("sign-out");
  }

  override render() {
    if (this.restoring) return html`<p class="loading" role="status">Loading…</p>`;
    // An invitation or reset link works with or without a session: it opens its own.
    if (this.route.section === "invite" && this.route.id)
      return html`<main class="sign-in" part="main">${this.whenLoaded(
        "team",
        () => html`<vx-accept-invite .token=${this.route.id} .apiBase=${this.base}></vx-accept-invite>`,
      )}</main>`;
    if (!this.email) return this.renderSignIn();
    return html`
      <a class="skip" href="#main" @click=${this.skipToMain}>Skip to content</a>
      <header class="bar">
        <strong class="brand">Voxgate</strong>
        <span class="muted who">${this.email}</span>
        <button type="button" @click=${this.signOut}>Sign out</button>
      </header>
      <div class="layout">
        <nav part="nav" aria-label="Sections">
          <ul>
            ${renderNav(this.route, this.isOperator, this.role)}
          </ul>
        </nav>
        <main id="main" part="main" tabindex="-1">
          ${this.#banners.renderModel()}
          ${this.#banners.renderCalendars(this.route.section)}
          ${this.failure ? html`<p class="error" role="alert">${this.failure}</p>` : nothing}
          ${keyed(this.route.section === "inbox" ? "inbox" : location.hash, this.renderRoute())}
        </main>
      </div>
    `;
  }

  private skipToMain(event: Event): void {
    event.preventDefault();
    this.renderRoot.querySelector<HTMLElement>("main")?.focus();
  }

  private renderRoute() {
    const chunk = chunkOf(this.route);
    return chunk ? this.whenLoaded(chunk, () => renderScreen(this.route)) : renderScreen(this.route);
  }

  /**
   * `screen` once `chunk` is in; until then a loading state, and if it failed (the network dropped, a
   * release replaced the file) the reason with a retry, the rest of the console still usable.
   */
  private whenLoaded(chunk: Chunk, screen: () => unknown) {
    const state = this.#chunks.state(chunk);
    if (state.status === "ready") return screen();
    if (state.status === "loading")
      return html`<p class="loading" role="status" data-testid="screen-loading">Loading…</p>`;
    return html`<div class="card" role="alert" data-testid="screen-failed">
      <p><strong>This screen could not be loaded.</strong> Check your connection and retry; if it fails
        again, reload the page (a new version of Voxgate may have been installed).</p>
      <p class="muted">${state.message}</p>
      <p><button class="primary" type="button" @click=${() => this.#chunks.retry(chunk)}>Retry</button></p>
    </div>`;
  }

  private renderSignIn() {
    return html`
      <main class="sign-in" part="main">
        <form class="card" @submit=${this.signIn} aria-labelledby="sign-in-title">
          <h1 id="sign-in-title">Sign in to Voxgate</h1>
          ${this.notice ? html`<p role="status" class="muted">${this.notice}</p>` : nothing}
          <label for="email">Email</label>
          <input id="email" name="email" type="email" autocomplete="username" required />
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required />
          ${this.signInError ? html`<p class="error" role="alert">${this.signInError}</p>` : nothing}
          <p><button class="primary" type="submit" ?disabled=${this.busy}>Sign in</button></p>
        </form>
      </main>
    `;
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    "vx-failure": CustomEvent<{ message: string }>;
    "voxgate-console-session": CustomEvent<VoxgateConsoleSessionDetail>;
  }
}
