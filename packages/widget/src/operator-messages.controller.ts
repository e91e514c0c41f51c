import type { ReactiveController, ReactiveControllerHost } from "lit";
import type { WidgetApi } from "./api-client.ts";

/** The element's conversation as the live stream needs it. */
export interface WatchedConversation {
  api: WidgetApi | null;
  /** Null until the visitor's first message starts a conversation. */
  id: string | null;
  /** Whether the visitor sees it (panel open, widget ready): a closed panel holds no connection. */
  visible: boolean;
}

/**
 * Operator replies reach an open panel at once, without the visitor writing first: while the
 * conversation is visible, this follows the server's stream of operator messages (which reconnects
 * by itself) and, after each reconnection, reads the history for what was written meanwhile.
 * The stream and the history can bring the same message, so each is shown once, by its server id.
 */
export class OperatorMessagesController implements ReactiveController {
  private watch: { conversationId: string; abort: AbortController } | null = null;
  private readonly shownIds = new Set<string>();

  constructor(
    host: ReactiveControllerHost,
    private readonly conversation: () => WatchedConversation,
    /** Shows an operator message that is not on screen yet. */
    private readonly show: (content: string) => void,
  ) {
    host.addController(this);
  }

  /** True the first time a message is met, false after: whoever gets true shows it. */
  claim(id: number | string): boolean {
    const key = String(id);
    if (this.shownIds.has(key)) return false;
    this.shownIds.add(key);
    return true;
  }

  /** Another conversation is on screen: none of its operator messages is shown yet. */
  forget(): void {
    this.shownIds.clear();
  }

  hostUpdated(): void {
    const { api, id, visible } = this.conversation();
    const conversationId = visible ? id : null;
    if (this.watch?.conversationId === conversationId) return;
    // The conversation changed or went out of sight: its stream closes as on leaving the page.
    this.hostDisconnected();
    if (!api || !conversationId) return;
    const abort = new AbortController();
    this.watch = { conversationId, abort };
    void api.watchOperatorMessages(conversationId, (message) => this.receive(message), {
      signal: abort.signal,
      onReconnected: () => void this.catchUp(conversationId),
    });
  }

  hostDisconnected(): void {
    this.watch?.abort.abort();
    this.watch = null;
  }

  private receive(message: { id: number | string; content: string }): void {
    if (this.claim(message.id)) this.show(message.content);
  }

  private async catchUp(conversationId: string): Promise<void> {
    const history = await this.conversation()
      .api?.fetchHistory(conversationId)
      .catch(() => null);
    if (!history || conversationId !== this.conversation().id) return;
    for (const message of history.messages) {
      if (message.role === "operator") this.receive(message);
    }
  }
}
