import type { Lifecycle, ServiceDeps } from "../../deps.ts";
import { listenForRevocations, type RevokedCredential } from "./revocations.ts";
import type { Viewer } from "./viewer.ts";

/** Enough for every live credential of a busy instance; past it the least recently used goes. */
const MAX_ENTRIES = 10_000;

interface Entry {
  viewer: Viewer;
  /** Epoch ms after which the entry is not served: the TTL, or a session's expiry if sooner. */
  until: number;
}

const credentialKey = (credential: Pick<RevokedCredential, "kind" | "id">) =>
  `${credential.kind}:${credential.id}`;

/**
 * Successful authentications, kept for a short TTL so that a request does not pay a database lookup
 * for a credential it presented a moment ago. Entries are keyed by the SHA-256 of the whole token
 * (the raw token is never kept): finding an entry requires the full secret, exactly as the
 * constant-time comparison against the stored hash does. A revoked credential is dropped on this
 * instance at once and on every other instance when the `credential:revoked` event reaches it.
 * While that event cannot arrive (the event bus is down) nothing is served from the cache nor kept
 * in it, and what it held is forgotten when the bus goes down and again when it comes back.
 */
export class CredentialCache implements Lifecycle {
  /** Insertion order is recency order: a hit moves its entry to the end. */
  private readonly entries = new Map<string, Entry>();
  private readonly hashOf = new Map<string, string>();
  /**
   * Bumped by every revocation. A lookup that started before one must not cache what it read: the
   * database may have answered before the revocation was written.
   */
  private revision = 0;
  private stopListening: (() => Promise<void>) | null = null;
  private stopWatchingBus: (() => void) | null = null;
  private readonly ttlMs: number;

  constructor(private readonly deps: ServiceDeps) {
    this.ttlMs = deps.config.credentialCacheSeconds * 1000;
  }

  start(): void {
    this.stopListening = listenForRevocations(this.deps, "credential cache", (credential) =>
      this.drop(credential),
    );
    this.stopWatchingBus = this.deps.eventBus.onChange(() => this.forgetAll());
  }

  async stop(): Promise<void> {
    this.stopWatchingBus?.();
    this.stopWatchingBus = null;
    await this.stopListening?.();
    this.stopListening = null;
    this.entries.clear();
    this.hashOf.clear();
  }

  /** A mark to hand back to `set`, taken before the database is asked. */
  mark(): number {
    return this.revision;
  }

  get(tokenHash: string): Viewer | null {
    if (!this.deps.eventBus.up) return null;
    const entry = this.entries.get(tokenHash);
    if (!entry) return null;
    if (entry.until <= Date.now()) {
      this.remove(tokenHash, entry);
      return null;
    }
    this.entries.delete(tokenHash);
    this.entries.set(tokenHash, entry);
    return entry.viewer;
  }

  set(tokenHash: string, viewer: Viewer, mark: number): void {
    if (this.ttlMs === 0 || mark !== this.revision || !this.deps.eventBus.up) return;
    const expiresAt = viewer.credential.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY;
    this.entries.set(tokenHash, { viewer, until: Math.min(Date.now() + this.ttlMs, expiresAt) });
    this.hashOf.set(credentialKey(viewer.credential), tokenHash);
    if (this.entries.size > MAX_ENTRIES) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.remove(oldest, entry);
    }
  }

  /**
   * Called once a credential is revoked in the database: forgets it here before the caller is
   * answered, then tells every instance (itself included, harmlessly) through the pubsub.
   */
  revoked(credential: RevokedCredential): void {
    this.drop(credential);
    this.deps.pubsub.publish("credential:revoked", credential);
  }

  /** Revocations may have gone unheard: lookups in flight must not cache what they read either. */
  private forgetAll(): void {
    this.revision++;
    this.entries.clear();
    this.hashOf.clear();
  }

  private drop(credential: RevokedCredential): void {
    this.revision++;
    if (credential.kind === "account") {
      for (const [tokenHash, entry] of [...this.entries]) {
        if (entry.viewer.accountId === credential.id) this.remove(tokenHash, entry);
      }
      return;
    }
    const key = credentialKey(credential);
    const tokenHash = this.hashOf.get(key);
    if (tokenHash === undefined) return;
    const entry = this.entries.get(tokenHash);
    if (entry) this.remove(tokenHash, entry);
    else this.hashOf.delete(key);
  }

  private remove(tokenHash: string, entry: Entry): void {
    this.entries.delete(tokenHash);
    this.hashOf.delete(credentialKey(entry.viewer.credential));
  }
}
