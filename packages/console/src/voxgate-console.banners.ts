import { html, nothing, type ReactiveControllerHost } from "lit";
import type { ConsoleApi } from "./api/client.ts";
import { CalendarConnectionsQuery, ChatModelsQuery } from "./api/operations.ts";
import { href } from "./router.ts";

/**
 * The banners above every screen: no chat model for this account, and calendar connections the provider
 * refused. `api` is the signed-in session's client, null when signed out (nothing is asked then).
 */
export class ShellBanners {
  /** Calendar connections the provider refused, named on every screen until repaired. */
  #brokenCalendars: string[] = [];
  /** No chat model answers this account (none configured, no key of its own). */
  #noModel = false;

  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly api: () => ConsoleApi | null,
  ) {}

  /**
   * Reads the connections' status on sign-in and on every navigation: a connection breaks when a
   * provider refuses it during a booking or a check, and the owner must hear of it wherever they are.
   * A failed read says nothing here: the screen in view reports its own failures.
   */
  async checkCalendars(): Promise<void> {
    const api = this.api();
    if (!api) return;
    try {
      const { calendarConnections } = await api.request(CalendarConnectionsQuery);
      this.#brokenCalendars = calendarConnections.filter((c) => c.status === "broken").map((c) => c.name);
      this.host.requestUpdate();
    } catch {
      // Signed out meanwhile, or the server is unreachable: the next navigation asks again.
    }
  }

  /** Read once a session starts: the deployment's configuration does not change while it runs. */
  async checkModel(): Promise<void> {
    const api = this.api();
    if (!api) return;
    try {
      const { aiModels } = await api.request(ChatModelsQuery);
      this.#noModel = !aiModels.some((model) => model.available);
      this.host.requestUpdate();
    } catch {
      // Unreachable or signed out meanwhile: no banner rather than a wrong one.
    }
  }

  renderModel() {
    if (!this.#noModel) return nothing;
    return html`<p class="banner info" role="status" data-testid="model-banner">
      No chat model is configured: assistants answer with a fixed fallback message, free of charge in chats and
      simulated calls (calls on a real carrier and browser test calls are still charged per minute). To have them
      answer with a model, the server needs <code>OPENAI_API_KEY</code>, or <code>OPENAI_BASE_URL</code> (with
      <code>OPENAI_MODEL</code>) for an OpenAI-compatible server such as Ollama, vLLM or llama.cpp, and a restart:
      see <code>docs/self-hosted-models.md</code>.</p>`;
  }

  /** The link to repair is left out on the Calendars screen itself. */
  renderCalendars(section: string) {
    const broken = this.#brokenCalendars;
    if (broken.length === 0) return nothing;
    const names = broken.map((name) => `“${name}”`).join(", ");
    return html`<p class="banner" role="alert" data-testid="calendar-banner">
      ${broken.length === 1 ? html`The calendar ${names} stopped working` : html`The calendars ${names} stopped working`}:
      assistants cannot book appointments into ${broken.length === 1 ? "it" : "them"}.
      ${section === "calendars" ? nothing : html`<a href=${href("calendars")}>Repair in Calendars</a>`}</p>`;
  }
}
