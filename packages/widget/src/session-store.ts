/**
 * What survives a page reload: the conversation id and whether the panel was open. Storage can be
 * unavailable (privacy modes, sandboxed iframes throw on access); the widget then works without it.
 */
export interface StoredSession {
  conversationId: string | null;
  open: boolean;
}

export class SessionStore {
  private readonly key: string;

  constructor(apiBase: string, assistantUuid: string) {
    this.key = `voxgate-chat:${apiBase.replace(/\/+$/, "")}:${assistantUuid}`;
  }

  read(): StoredSession {
    try {
      const raw = localStorage.getItem(this.key);
      const parsed = raw ? (JSON.parse(raw) as Partial<StoredSession>) : {};
      return {
        conversationId: typeof parsed.conversationId === "string" ? parsed.conversationId : null,
        open: parsed.open === true,
      };
    } catch {
      return { conversationId: null, open: false };
    }
  }

  write(session: StoredSession): void {
    try {
      localStorage.setItem(this.key, JSON.stringify(session));
    } catch {
      // Without storage the session just does not survive a reload.
    }
  }
}
