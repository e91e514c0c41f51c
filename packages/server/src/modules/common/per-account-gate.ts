/**
 * At most `limit` runs of an expensive read per account at a time, in this process: one account's
 * burst of overviews or exports cannot take every database connection from the others. `enter`
 * takes a place synchronously, before any await, or returns null when the account's places are
 * taken; the caller answers a typed "try again" error.
 */
export class PerAccountGate {
  private readonly running = new Map<number, number>();

  constructor(readonly limit: number) {}

  /** A release function (idempotent), or null when `accountId` already runs `limit` reads. */
  enter(accountId: number): (() => void) | null {
    const count = this.running.get(accountId) ?? 0;
    if (count >= this.limit) return null;
    this.running.set(accountId, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.running.get(accountId) ?? 1) - 1;
      if (left === 0) this.running.delete(accountId);
      else this.running.set(accountId, left);
    };
  }
}
