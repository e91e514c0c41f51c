import type { Lifecycle, ServiceDeps } from "../../deps.ts";
import type { Prisma } from "../../generated/prisma/client.ts";

/**
 * The assistant settings a reply reads. Assistants have dozens of columns: mapping only these makes
 * a lookup about twice as cheap.
 */
export const replySettingsColumns = {
  name: true,
  systemPrompt: true,
  initialMessage: true,
  timezone: true,
  llmTemperature: true,
  knowledgebaseId: true,
  knowledgebaseMode: true,
  tools: true,
  variables: true,
  allowedOrigins: true,
  llmModelId: true,
  redactPii: true,
  redactRecordings: true,
} satisfies Prisma.AssistantSelect;

export type ReplySettings = Prisma.AssistantGetPayload<{ select: typeof replySettingsColumns }>;

/** Enough for every assistant a busy instance answers for; past it the least recently used goes. */
const MAX_ENTRIES = 10_000;

interface Entry {
  accountId: number;
  settings: ReplySettings;
  /** Epoch ms after which the entry is not served. */
  until: number;
}

/**
 * The reply settings of live assistants, kept for a short TTL (`VOXGATE_ASSISTANT_CACHE_SECONDS`) so
 * that a reply does not pay a database lookup for the assistant it answered for a moment ago. Every
 * change to an assistant goes through `changed`, which forgets it here before the change is answered
 * and on every other instance when the `assistant:changed` event reaches it (through Redis); the TTL
 * bounds staleness should an event be lost (Redis away) and covers changes made beside the
 * assistants service (a deleted knowledge base unlinks itself in the database).
 */
export class ReplySettingsCache implements Lifecycle {
  /** Insertion order is recency order: a hit moves its entry to the end. */
  private readonly entries = new Map<number, Entry>();
  /**
   * Bumped by every change. A lookup that started before one must not cache what it read: the
   * database may have answered before the change was written.
   */
  private revision = 0;
  private stopListening: (() => Promise<void>) | null = null;
  private stopWatchingBus: (() => void) | null = null;
  private readonly ttlMs: number;

  constructor(private readonly deps: ServiceDeps) {
    this.ttlMs = deps.config.assistantCacheSeconds * 1000;
  }

  start(): void {
    const changes = this.deps.pubsub.subscribe("assistant:changed")[Symbol.asyncIterator]();
    void (async () => {
      for (;;) {
        const { done, value } = await changes.next();
        if (done) return;
        this.drop(value.assistantId);
      }
    })().catch((error: unknown) =>
      this.deps.logger.error("assistant settings cache: changes stopped", { error }),
    );
    this.stopListening = async () => {
      await changes.return?.();
    };
    // Changes may go unheard while the event bus is down: forget, and read through until it is back.
    this.stopWatchingBus = this.deps.eventBus.onChange(() => {
      this.revision++;
      this.entries.clear();
    });
  }

  async stop(): Promise<void> {
    this.stopWatchingBus?.();
    this.stopWatchingBus = null;
    await this.stopListening?.();
    this.stopListening = null;
    this.entries.clear();
  }

  /** The settings of one of the account's assistants that is not deleted; null for any other id. */
  async get(accountId: number, assistantId: number): Promise<ReplySettings | null> {
    const trusted = this.deps.eventBus.up;
    const entry = this.entries.get(assistantId);
    if (trusted && entry && entry.until > Date.now()) {
      this.entries.delete(assistantId);
      this.entries.set(assistantId, entry);
      return entry.accountId === accountId ? entry.settings : null;
    }
    if (entry) this.entries.delete(assistantId);
    const mark = this.revision;
    const row = await this.deps.db.prisma.assistant.findFirst({
      where: { id: assistantId, deletedAt: null },
      select: { accountId: true, ...replySettingsColumns },
    });
    if (!row) return null;
    const { accountId: owner, ...settings } = row;
    if (trusted && this.ttlMs > 0 && mark === this.revision) {
      this.entries.set(assistantId, { accountId: owner, settings, until: Date.now() + this.ttlMs });
      if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    }
    return owner === accountId ? settings : null;
  }

  /**
   * Called once an assistant was changed or deleted in the database: forgets it here before the
   * caller is answered, then tells every instance (itself included, harmlessly) through the pubsub.
   */
  changed(assistantId: number): void {
    this.drop(assistantId);
    this.deps.pubsub.publish("assistant:changed", { assistantId });
  }

  private drop(assistantId: number): void {
    this.revision++;
    this.entries.delete(assistantId);
  }
}
