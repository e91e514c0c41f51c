import { html, LitElement } from "lit";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CountdownController } from "../src/countdown.controller.ts";

/** The smallest element that shows a countdown: the seconds left until `until`. */
class CountdownHost extends LitElement {
  readonly countdown = new CountdownController(this);
  until = 0;
  renders = 0;

  protected override render() {
    this.renders++;
    return html`${Math.max(0, Math.ceil((this.until - this.countdown.now) / 1000))}`;
  }
}
customElements.define("countdown-host", CountdownHost);

async function mount(secondsToWait: number): Promise<CountdownHost> {
  const host = document.createElement("countdown-host") as CountdownHost;
  document.body.append(host);
  host.until = Date.now() + secondsToWait * 1000;
  host.countdown.start(host.until);
  await host.updateComplete;
  return host;
}

const shown = (host: CountdownHost) => host.shadowRoot!.textContent!.trim();

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
  for (const host of document.querySelectorAll("countdown-host")) host.remove();
});

describe("CountdownController", () => {
  it("re-renders its element as the seconds run out, and stops at the deadline", async () => {
    const host = await mount(2);
    expect(shown(host)).toBe("2");
    vi.advanceTimersByTime(1000);
    await host.updateComplete;
    expect(shown(host)).toBe("1");
    vi.advanceTimersByTime(1000);
    await host.updateComplete;
    expect(shown(host)).toBe("0");

    const renders = host.renders;
    vi.advanceTimersByTime(10_000);
    await host.updateComplete;
    expect(host.renders).toBe(renders);
  });

  it("stops when its element leaves the page", async () => {
    const host = await mount(60);
    const renders = host.renders;
    host.remove();
    vi.advanceTimersByTime(60_000);
    await host.updateComplete;
    expect(host.renders).toBe(renders);
  });
});
