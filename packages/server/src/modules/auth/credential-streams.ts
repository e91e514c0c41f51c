import type { Lifecycle, ServiceDeps } from "../../deps.ts";
import type { Viewer } from "./auth.service.ts";
import { listenForRevocations, type RevokedCredential } from "./revocations.ts";

export type StreamEnd = "revoked" | "expired";

/** While the event bus is down, how often the credentials of live streams are looked up again. */
const RECHECK_WHILE_BUS_DOWN_MS = 10_000;

/** setTimeout cannot wait longer than this; later expiries are re-armed in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Ends live streams (subscriptions) whose credential stops being valid: a deleted API key or a
 * logged-out session, announced through the pubsub so that every instance hears it (through Redis
 * when REDIS_URL is set), and a session reaching its expiry. A stream ends with one last value
 * saying why, then completes. Revocations announced while the event bus is down go unheard: meanwhile
 * every live stream's credential is looked up again every few seconds, and once more when it is back.
 */
export class CredentialStreams implements Lifecycle {
  private readonly live = new Map<string, Set<(reason: StreamEnd) => void>>();
  /** The same listeners by account, for a suspension. */
  private readonly liveByAccount = new Map<number, Set<(reason: StreamEnd) => void>>();
  private stopListening: (() => Promise<void>) | null = null;
  private stopWatchingBus: (() => void) | null = null;
  private recheckTimer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: ServiceDeps) {}

  start(): void {
    this.stopListening = listenForRevocations(
      this.deps,
      "credential streams",
      (credential) => void this.endIfRevoked(credential),
    );
    this.stopWatchingBus = this.deps.eventBus.onChange((up) => {
      clearInterval(this.recheckTimer);
      if (up) {
        void this.recheckAll();
        return;
      }
      this.recheckTimer = setInterval(() => void this.recheckAll(), RECHECK_WHILE_BUS_DOWN_MS);
      this.recheckTimer.unref();
    });
  }

  async stop(): Promise<void> {
    clearInterval(this.recheckTimer);
    this.stopWatchingBus?.();
    this.stopWatchingBus = null;
    await this.stopListening?.();
    this.stopListening = null;
  }

  /**
   * The source, ended with `last(reason)` once the viewer's credential is revoked or expires. The
   * wrapper is a plain iterator (not an async generator) so that a client going away can end the
   * source even while it waits for its next event.
   */
  watch<T>(
    viewer: Viewer,
    source: AsyncIterator<T> & Partial<AsyncIterable<T>>,
    last: (reason: StreamEnd) => T,
  ): AsyncIterableIterator<T> {
    const key = `${viewer.credential.kind}:${viewer.credential.id}`;
    let ended: StreamEnd | null = null;
    let finished = false;
    let timer: NodeJS.Timeout | undefined;
    let wake: (reason: StreamEnd) => void = () => {};
    const endOf = new Promise<StreamEnd>((resolve) => {
      wake = resolve;
    });
    const listener = (reason: StreamEnd) => {
      ended = reason;
      wake(reason);
    };
    const listeners = this.live.get(key) ?? new Set();
    listeners.add(listener);
    this.live.set(key, listeners);
    const accountListeners = this.liveByAccount.get(viewer.accountId) ?? new Set();
    accountListeners.add(listener);
    this.liveByAccount.set(viewer.accountId, accountListeners);
    // A revocation announced between authenticating the caller and registering here went unheard:
    // one look at the credential, now that later revocations are heard, closes that gap.
    void this.revokedInDatabase(viewer.credential, viewer.accountId).then(
      (revoked) => revoked && listener("revoked"),
      (error: unknown) => this.deps.logger.warn("could not re-check a credential", { error }),
    );

    const expiresAt = viewer.credential.expiresAt?.getTime();
    const arm = () => {
      if (expiresAt === undefined) return;
      const wait = expiresAt - Date.now();
      if (wait <= 0) return listener("expired");
      timer = setTimeout(arm, Math.min(wait, MAX_TIMER_MS));
      timer.unref();
    };
    arm();

    const release = async () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      listeners.delete(listener);
      if (listeners.size === 0 && this.live.get(key) === listeners) this.live.delete(key);
      accountListeners.delete(listener);
      if (accountListeners.size === 0 && this.liveByAccount.get(viewer.accountId) === accountListeners) {
        this.liveByAccount.delete(viewer.accountId);
      }
      await source.return?.();
    };

    const iterator: AsyncIterableIterator<T> = {
      [Symbol.asyncIterator]: () => iterator,
      next: async () => {
        if (finished) return { done: true, value: undefined };
        if (ended) {
          const reason = ended;
          await release();
          return { done: false, value: last(reason) };
        }
        const step = await Promise.race([source.next(), endOf]);
        if (typeof step === "string") {
          await release();
          return { done: false, value: last(step) };
        }
        if (step.done) await release();
        return step;
      },
      return: async () => {
        await release();
        return { done: true, value: undefined };
      },
      throw: async (error: unknown) => {
        await release();
        throw error;
      },
    };
    return iterator;
  }

  private async revokedInDatabase(credential: RevokedCredential, accountId?: number): Promise<boolean> {
    const { prisma } = this.deps.db;
    if (accountId !== undefined || credential.kind === "account") {
      const account = await prisma.account.findUnique({
        where: { id: accountId ?? credential.id },
        select: { suspendedAt: true },
      });
      if (account === null || account.suspendedAt !== null) return true;
      if (credential.kind === "account") return false;
    }
    if (credential.kind === "apiKey") {
      return (
        (await prisma.apiKey.findUnique({ where: { id: credential.id }, select: { id: true } })) === null
      );
    }
    const session = await prisma.sessionToken.findUnique({
      where: { id: credential.id },
      select: { revokedAt: true },
    });
    return session === null || session.revokedAt !== null;
  }

  /**
   * Looks up the credential of every live stream and ends those revoked. A lookup that fails (the
   * database is down too) keeps its streams: the next round, or the event, decides.
   */
  async recheckAll(): Promise<void> {
    const checks: [RevokedCredential, Set<(reason: StreamEnd) => void>][] = [
      ...[...this.live].map(([key, listeners]): [RevokedCredential, Set<(reason: StreamEnd) => void>] => {
        const [kind, id] = key.split(":") as [RevokedCredential["kind"], string];
        return [{ kind, id: Number(id) }, listeners];
      }),
      ...[...this.liveByAccount].map(
        ([id, listeners]): [RevokedCredential, Set<(reason: StreamEnd) => void>] => [
          { kind: "account", id },
          listeners,
        ],
      ),
    ];
    for (const [credential, listeners] of checks) {
      try {
        if (!(await this.revokedInDatabase(credential))) continue;
      } catch (error) {
        this.deps.logger.warn("could not re-check a credential", { error });
        continue;
      }
      for (const listener of [...listeners]) listener("revoked");
    }
  }

  /**
   * Ends the streams of a credential announced as revoked, once the database agrees: an event from
   * a deployment on another database that shares the Redis server must not end ours.
   */
  private async endIfRevoked(credential: RevokedCredential): Promise<void> {
    const listeners =
      credential.kind === "account"
        ? this.liveByAccount.get(credential.id)
        : this.live.get(`${credential.kind}:${credential.id}`);
    if (!listeners || listeners.size === 0) return;
    try {
      if (!(await this.revokedInDatabase(credential))) return;
    } catch (error) {
      // Unsure, the streams end: a live stream on a revoked credential is the worse mistake.
      this.deps.logger.warn("could not check a revoked credential", { error });
    }
    for (const listener of [...listeners]) listener("revoked");
  }
}
