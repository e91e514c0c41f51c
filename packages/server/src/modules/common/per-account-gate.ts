/** Gives a place back; calling it again does nothing. */
export type GateRelease = () => void;

/**
 * At most `limit` runs of one expensive read per account at a time: one account's burst of
 * overviews or exports cannot take every database connection from the others. `enter` resolves
 * with a release function, or null when the account's places are taken; the caller answers a typed
 * "try again" error. Calls made one after another take places in that order: a place is asked for
 * before `enter` first awaits. Built in the composition root (`AccountGates`): across instances
 * with REDIS_URL, in this process otherwise.
 */
export interface AccountGate {
  readonly limit: number;
  enter(accountId: number): Promise<GateRelease | null>;
}

/**
 * The places of one gate in this process: the gate itself without Redis, and its stand-in while
 * Redis cannot be reached. `enter` takes a place synchronously or returns null.
 */
export class PerAccountGate {
  private readonly running = new Map<number, number>();

  constructor(readonly limit: number) {}

  /** A release function (idempotent), or null when `accountId` already runs `limit` reads. */
  enter(accountId: number): GateRelease | null {
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
