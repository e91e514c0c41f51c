import type { ReactiveController, ReactiveControllerHost } from "lit";

/**
 * A clock that re-renders its element while a wait runs out (a rate limit's `Retry-After`), so a
 * button can count the seconds down. It stops by itself at the deadline, and when the element leaves
 * the page.
 */
export class CountdownController implements ReactiveController {
  /** The time of the last tick, in ms since the epoch. */
  now = Date.now();
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  /** Ticks (four times a second, so the shown second never lags) until `until`, ms since the epoch. */
  start(until: number): void {
    this.stop();
    this.now = Date.now();
    this.timer = setInterval(() => {
      this.now = Date.now();
      this.host.requestUpdate();
      if (this.now >= until) this.stop();
    }, 250);
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }

  hostDisconnected(): void {
    this.stop();
  }
}
