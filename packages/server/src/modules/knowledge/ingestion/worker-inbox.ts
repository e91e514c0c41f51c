/**
 * Messages waiting to be taken one at a time. An abort ends the taking at once; another failure (the
 * worker's exit, which also follows its last message) only once the messages before it are taken.
 */
export class Inbox<T> {
  private readonly queue: T[] = [];
  private failure: { error: unknown } | null = null;
  private waiter: { resolve: (value: T) => void; reject: (error: unknown) => void } | null = null;

  constructor(private readonly signal: AbortSignal) {
    signal.addEventListener("abort", () => this.fail(signal.reason), { once: true });
  }

  put(message: T): void {
    if (this.waiter) {
      this.waiter.resolve(message);
      this.waiter = null;
    } else this.queue.push(message);
  }

  /** The first failure wins: the worker's exit after an error or abort is not the cause. */
  fail(error: unknown): void {
    if (this.failure) return;
    this.failure = { error };
    this.waiter?.reject(error);
    this.waiter = null;
  }

  take(): Promise<T> {
    if (this.signal.aborted) return Promise.reject(this.signal.reason);
    if (this.queue.length > 0) return Promise.resolve(this.queue.shift()!);
    if (this.failure) return Promise.reject(this.failure.error);
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }
}
