import type { Redis } from "ioredis";
import {
  type RateLimiterAbstract,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from "rate-limiter-flexible";
import type { ServiceDeps } from "../../deps.ts";
import { RateLimitedError } from "../../errors.ts";
import { lazyRequire } from "../../lazy-require.ts";

/** ioredis is loaded only with REDIS_URL: an embedded single instance never needs it. */
const ioredis = lazyRequire<typeof import("ioredis")>("ioredis");

/** Where a caller stands against one limit, for the RateLimit-* response headers. */
export interface RateLimitStatus {
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
  /** Set when the request was refused: seconds to wait before trying again. */
  retryAfterSeconds?: number;
}

/** Receives the status of each limit checked, so the transport can send it as headers. */
export type RateLimitReporter = (status: RateLimitStatus) => void;

/** The limits the service knows; each is a number of requests per window from config. */
export type LimitName =
  | "reply"
  | "widgetStart"
  | "widgetMessage"
  | "conversationMessage"
  | "loginEmail"
  | "loginAddress"
  | "testWebhook"
  | "evaluation"
  | "memberEmail";

/**
 * Fixed-window limits per key. With REDIS_URL the counters live in Redis, so the limit holds across
 * every instance behind a load balancer; otherwise they live in this process's memory. While Redis
 * is not connected, an in-memory limiter per instance takes over at once (no request waits for Redis)
 * rather than letting every request through or refusing them all: limits then hold per instance.
 */
export class RateLimitsService {
  readonly store: "redis" | "memory";
  private readonly limiters: Record<LimitName, RateLimiterAbstract>;
  private readonly redis: Redis | null;

  constructor(private readonly deps: ServiceDeps) {
    const { rateLimits, loginThrottle, redisUrl } = deps.config;
    const perMinute = (points: number) => ({ points, duration: 60 });
    const windows: Record<LimitName, { points: number; duration: number }> = {
      reply: perMinute(rateLimits.replyPerMinute),
      widgetStart: perMinute(rateLimits.widgetPerMinute),
      widgetMessage: perMinute(rateLimits.widgetPerMinute),
      conversationMessage: perMinute(rateLimits.conversationPerMinute),
      loginEmail: { points: loginThrottle.failuresPerEmail, duration: loginThrottle.windowSeconds },
      loginAddress: { points: loginThrottle.failuresPerAddress, duration: loginThrottle.windowSeconds },
      testWebhook: perMinute(rateLimits.testWebhookPerMinute),
      evaluation: perMinute(rateLimits.evaluationPerMinute),
      // Per account: invitation and reset emails go to any address an admin types.
      memberEmail: { points: deps.config.mail?.perAccountPerHour ?? 1, duration: 3600 },
    };
    this.redis = redisUrl
      ? new (ioredis().Redis)(redisUrl, { maxRetriesPerRequest: 1, lazyConnect: true })
      : null;
    // Reconnects by itself; each failed attempt is worth a line, never an unhandled error.
    this.redis?.on("error", (error: unknown) => deps.logger.warn("rate limits: redis failed", { error }));
    this.store = this.redis ? "redis" : "memory";
    const build = (name: LimitName): RateLimiterAbstract => {
      const options = { keyPrefix: `${deps.config.redisKeyPrefix}:rate-limit:${name}`, ...windows[name] };
      if (!this.redis) return new RateLimiterMemory(options);
      return new RateLimiterRedis({
        ...options,
        storeClient: this.redis,
        rejectIfRedisNotReady: true,
        insuranceLimiter: new RateLimiterMemory(options),
      });
    };
    this.limiters = {
      reply: build("reply"),
      widgetStart: build("widgetStart"),
      widgetMessage: build("widgetMessage"),
      conversationMessage: build("conversationMessage"),
      loginEmail: build("loginEmail"),
      loginAddress: build("loginAddress"),
      testWebhook: build("testWebhook"),
      evaluation: build("evaluation"),
      memberEmail: build("memberEmail"),
    };
  }

  /**
   * Counts one request against `limit` for `key`; reports the status either way, and throws
   * RATE_LIMITED (with the seconds to wait) when the budget is spent.
   */
  async consume(limit: LimitName, key: string, report: RateLimitReporter, message: string): Promise<void> {
    const limiter = this.limiters[limit];
    try {
      const result = await limiter.consume(key);
      report(statusOf(limiter.points, result));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const status = statusOf(limiter.points, rejection);
      const retryAfterSeconds = Math.max(1, status.resetSeconds);
      report({ ...status, retryAfterSeconds });
      throw new RateLimitedError(message, retryAfterSeconds);
    }
  }

  /** Gives back one request counted against `limit` for `key` (it turned out not to count). */
  async reward(limit: LimitName, key: string): Promise<void> {
    await this.limiters[limit].reward(key);
  }

  /** Forgets everything counted against `limit` for `key`. */
  async reset(limit: LimitName, key: string): Promise<void> {
    await this.limiters[limit].delete(key);
  }

  /** Whether limits are counted per instance right now because Redis is configured but not connected. */
  get local(): boolean {
    return this.redis !== null && this.redis.status !== "ready";
  }

  async start(): Promise<void> {
    // Redis away at start is an outage like any other: limits are local until the client reconnects.
    await this.redis?.connect().catch((error: unknown) =>
      this.deps.logger.warn("rate limits: redis not reachable at start; limits are per instance", {
        error,
      }),
    );
  }

  async stop(): Promise<void> {
    if (this.redis && this.redis.status !== "end") await this.redis.quit().catch(() => undefined);
  }
}

function statusOf(limit: number, result: RateLimiterRes): RateLimitStatus {
  return {
    limit,
    remaining: Math.max(0, result.remainingPoints),
    resetSeconds: Math.ceil(result.msBeforeNext / 1000),
  };
}

/**
 * A reporter that writes the IETF RateLimit header fields (and Retry-After on refusal) into
 * `headers`. When several limits apply to one request, the one closest to running out is shown.
 */
export function rateLimitHeaderWriter(headers: Headers): RateLimitReporter {
  return (status) => {
    const shown = headers.get("RateLimit-Remaining");
    if (shown !== null && Number(shown) < status.remaining && status.retryAfterSeconds === undefined) return;
    headers.set("RateLimit-Limit", String(status.limit));
    headers.set("RateLimit-Remaining", String(status.remaining));
    headers.set("RateLimit-Reset", String(status.resetSeconds));
    if (status.retryAfterSeconds !== undefined) headers.set("Retry-After", String(status.retryAfterSeconds));
  };
}
