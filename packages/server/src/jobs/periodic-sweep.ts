import type { Lifecycle } from "../deps.ts";
import type { Logger } from "../logger.ts";

/**
 * Background work whose schedule is the database itself: it runs once as soon as the service starts
 * (so work that came due while no instance ran is done at once) and then `intervalMs` after each run
 * ends. A failed run is logged and the next one tries again; `stop` waits for a run in flight.
 */
export abstract class PeriodicSweep implements Lifecycle {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly name: string,
    private readonly intervalMs: number,
    protected readonly logger: Logger,
  ) {}

  protected abstract runOnce(): Promise<unknown>;

  start() {
    this.schedule(0);
  }

  async stop() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(delay: number) {
    this.timer = setTimeout(() => {
      this.running = this.runOnce()
        .catch((error: unknown) => this.logger.error(`${this.name} failed`, { error }))
        .finally(() => {
          if (this.timer) this.schedule(this.intervalMs);
        });
    }, delay);
  }
}
