import { css, html, nothing } from "lit";
import { ConversationActivitySubscription, UnreadConversationCountQuery } from "./api/operations.ts";
import { Screen } from "./screen.ts";

/**
 * The navigation's count of open conversations with a customer message the signed-in member has not
 * read; live: any inbox activity (a message, a status change, the member's own read) asks again.
 */
export class VxUnreadBadge extends Screen {
  static override properties = { count: { state: true } };
  declare count: number;
  /** A count in flight, and whether events arrived meanwhile (a burst asks once more, not once per event). */
  #counting: Promise<void> | null = null;
  #again = false;

  constructor() {
    super();
    this.count = 0;
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.refresh();
    this.track(this.api.subscribe(ConversationActivitySubscription, {}, () => this.refresh()));
  }

  private refresh(): void {
    if (this.#counting) {
      this.#again = true;
      return;
    }
    this.#counting = (async () => {
      try {
        do {
          this.#again = false;
          this.count = (await this.api.request(UnreadConversationCountQuery, {})).unreadConversationCount;
        } while (this.#again);
      } catch {
        // The badge is a hint: the inbox itself shows a failed load.
      } finally {
        this.#counting = null;
      }
    })();
  }

  override render() {
    if (this.count === 0) return nothing;
    return html`<span class="count" data-testid="unread-count">${this.count}</span><span class="sr-only"> unread</span>`;
  }

  static override styles = [
    ...Screen.styles,
    css`
      :host {
        display: inline;
      }
      .count {
        display: inline-block;
        min-width: 1.25rem;
        margin-left: 0.4rem;
        padding: 0 0.35rem;
        border: 1px solid currentColor;
        border-radius: 999px;
        font-size: 0.8rem;
        font-weight: 700;
        text-align: center;
      }
    `,
  ];
}
