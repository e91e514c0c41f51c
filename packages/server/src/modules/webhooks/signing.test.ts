import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { isRetryable, newSecret, retryDelayMs, signedHeaders } from "./signing.ts";

describe("webhook signing and retry rules", () => {
  it("produces headers the standardwebhooks library verifies, with every secret of a rotation", () => {
    const [current, retiring] = [newSecret(), newSecret()];
    const body = JSON.stringify({ type: "webhook.test", timestamp: "2026-11-23T10:00:00Z", data: {} });
    const headers = signedHeaders([current, retiring], "msg_1", body);
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
    for (const secret of [current, retiring])
      expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(current).verify(`${body} `, headers)).toThrow();
  });

  it("backs off exponentially within ±25 %, caps the delay and honours a longer Retry-After", () => {
    const options = { baseMs: 10_000, maxDelayMs: 14_400_000 };
    expect(retryDelayMs(1, options, () => 0.5)).toBe(10_000);
    expect(retryDelayMs(4, options, () => 0)).toBe(60_000);
    expect(retryDelayMs(4, options, () => 1)).toBe(100_000);
    expect(retryDelayMs(30, options, () => 1)).toBe(14_400_000);
    expect(retryDelayMs(1, { ...options, retryAfterMs: 120_000 }, () => 0.5)).toBe(120_000);
    // About a day in all with the default 17 attempts (16 waits).
    const total = Array.from({ length: 16 }, (_, n) => retryDelayMs(n + 1, options, () => 0.5)).reduce(
      (a, b) => a + b,
    );
    expect(total / 3_600_000).toBeGreaterThan(20);
    expect(total / 3_600_000).toBeLessThan(30);
  });

  it("retries no answer, 408, 429 and 5xx, and nothing else", () => {
    expect([null, 408, 429, 500, 503].map(isRetryable)).toEqual([true, true, true, true, true]);
    expect([400, 401, 404, 410, 422, 301].map(isRetryable)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
