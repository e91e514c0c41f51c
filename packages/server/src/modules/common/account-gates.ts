import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import type { ServiceDeps } from "../../deps.ts";
import { lazyRequire } from "../../lazy-require.ts";
import { type AccountGate, type GateRelease, PerAccountGate } from "./per-account-gate.ts";

/** ioredis is loaded only with REDIS_URL: an embedded single instance never needs it. */
const ioredis = lazyRequire<typeof import("ioredis")>("ioredis");

/**
 * Longest a gate's Redis command may take before the read is admitted by the in-process gate instead:
 * a place costs one round trip, so a Redis that takes longer is treated as away rather than waited on.
 */
const REDIS_COMMAND_TIMEOUT_MS = 500;

/**
 * Redis's own clock, in milliseconds: every instance's leases are dated by one clock, so clocks that
 * disagree between instances neither shorten nor lengthen a lease. Scripts may write after reading
 * TIME since Redis 5 (effects replication).
 */
const NOW = `
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
`;

/**
 * KEYS[1] the account's sorted set of leases (member: lease id, score: expiry); ARGV limit, lease
 * length (ms), lease id. Expired leases are dropped first, so an instance that died holding one stops
 * counting once it expires. 1: taken; 0: the account's places are all held.
 */
const ACQUIRE = `${NOW}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`;

/**
 * KEYS[1] as above; ARGV lease length (ms), lease id. Pushes a live lease's expiry on. A lease that
 * expired already is not revived: another read may have taken its place. 1: renewed; 0: lost.
 */
const RENEW = `${NOW}
local expiry = redis.call('ZSCORE', KEYS[1], ARGV[2])
if not expiry or tonumber(expiry) <= now then
  redis.call('ZREM', KEYS[1], ARGV[2])
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1
`;

interface GateScripts {
  readGateAcquire(key: string, limit: number, leaseMs: number, lease: string): Promise<number>;
  readGateRenew(key: string, leaseMs: number, lease: string): Promise<number>;
}

/**
 * The per-account gates of expensive reads (the Overview, the calls export). With REDIS_URL each is a
 * counting semaphore per account in Redis, so the limit holds across every instance behind a load
 * balancer: a place is a lease in the account's sorted set, taken and renewed by Lua scripts (atomic),
 * renewed every third of its length while the read runs and removed when it ends (idempotently). An
 * instance that dies holding places stops counting once their leases expire (`VOXGATE_READ_LEASE_SECONDS`).
 * Without REDIS_URL, and while Redis is not connected or does not answer in time, each gate's
 * in-process places admit at once (no request waits for Redis), with a log line when that starts and
 * when Redis is back: limits then hold per instance, as rate limits do (docs/operations.md#expensive-reads-across-instances).
 */
export class AccountGates {
  readonly store: "redis" | "memory";
  private readonly redis: Redis | null;
  private readonly leaseMs: number;
  private readonly renewals = new Set<NodeJS.Timeout>();
  /** Whether reads are being admitted in process because Redis is away (for the transition's log lines). */
  private fellBack = false;

  constructor(private readonly deps: ServiceDeps) {
    const { redisUrl, readLeaseSeconds } = deps.config;
    this.leaseMs = readLeaseSeconds * 1000;
    this.redis = redisUrl
      ? new (ioredis().Redis)(redisUrl, {
          lazyConnect: true,
          maxRetriesPerRequest: 1,
          // A command while the connection is down fails at once instead of waiting for a reconnect.
          enableOfflineQueue: false,
          commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
        })
      : null;
    // Reconnects by itself; the fall back to in-process places is logged once per outage, below.
    this.redis?.on("error", (error: unknown) => deps.logger.debug("read gates: redis failed", { error }));
    this.redis?.defineCommand("readGateAcquire", { numberOfKeys: 1, lua: ACQUIRE });
    this.redis?.defineCommand("readGateRenew", { numberOfKeys: 1, lua: RENEW });
    this.store = this.redis ? "redis" : "memory";
  }

  /** A gate of `limit` places per account; `name` keeps its leases apart from other gates'. */
  gate(name: string, limit: number): AccountGate {
    const inProcess = new PerAccountGate(limit);
    const redis = this.redis;
    if (!redis) return { limit, enter: async (accountId) => inProcess.enter(accountId) };
    const scripts = redis as unknown as GateScripts;
    const keyOf = (accountId: number) => `${this.deps.config.redisKeyPrefix}:read-gate:${name}:${accountId}`;
    return {
      limit,
      enter: async (accountId) => {
        if (redis.status !== "ready") {
          this.fallBack(name, { redis: redis.status });
          return inProcess.enter(accountId);
        }
        const key = keyOf(accountId);
        const lease = randomUUID();
        let taken: number;
        try {
          taken = await scripts.readGateAcquire(key, limit, this.leaseMs, lease);
        } catch (error) {
          // A script that timed out here may still have run there: its lease must not linger.
          redis.zrem(key, lease).catch(() => undefined);
          this.fallBack(name, { error });
          return inProcess.enter(accountId);
        }
        this.backOnRedis();
        return taken === 1 ? this.hold(scripts, redis, name, key, lease) : null;
      },
    };
  }

  /** Whether places are counted per instance right now because Redis is configured but not connected. */
  get local(): boolean {
    return this.redis !== null && this.redis.status !== "ready";
  }

  async start(): Promise<void> {
    // Redis away at start is an outage like any other: places are per instance until it reconnects.
    await this.redis?.connect().catch((error: unknown) =>
      this.deps.logger.warn(
        "read gates: redis not reachable at start; limits on expensive reads are per instance",
        {
          error,
        },
      ),
    );
  }

  async stop(): Promise<void> {
    // Leases still held are left to expire: their reads may outlive this call, as a dead instance's do.
    for (const timer of this.renewals) clearInterval(timer);
    this.renewals.clear();
    // QUIT on a connection that is not ready would, with no offline queue, fail and leave ioredis
    // connecting (or reconnecting) for good, keeping a CLI process alive: that is dropped instead.
    if (this.redis?.status === "ready") await this.redis.quit().catch(() => undefined);
    else this.redis?.disconnect();
  }

  /** Renews the lease while the read runs; the release removes it. */
  private hold(scripts: GateScripts, redis: Redis, name: string, key: string, lease: string): GateRelease {
    const renewal = setInterval(() => {
      if (redis.status !== "ready") return;
      scripts.readGateRenew(key, this.leaseMs, lease).then(
        (kept) => {
          if (kept === 1) return;
          // Renewals failed for a whole lease (Redis away, the process stalled): the read goes on, uncounted.
          stopRenewal();
          this.deps.logger.warn("read gates: a running read lost its lease", { gate: name });
        },
        (error: unknown) => this.deps.logger.debug("read gates: renewal failed", { gate: name, error }),
      );
    }, this.leaseMs / 3);
    renewal.unref();
    this.renewals.add(renewal);
    const stopRenewal = () => {
      clearInterval(renewal);
      this.renewals.delete(renewal);
    };
    let released = false;
    return () => {
      if (released) return;
      released = true;
      stopRenewal();
      if (redis.status === "end") return;
      redis.zrem(key, lease).catch((error: unknown) =>
        this.deps.logger.warn("read gates: release failed; the lease expires by itself", {
          gate: name,
          error,
        }),
      );
    };
  }

  private fallBack(gate: string, fields: Record<string, unknown>): void {
    if (this.fellBack) return;
    this.fellBack = true;
    this.deps.logger.warn("read gates: redis unavailable; limits on expensive reads hold per instance", {
      gate,
      ...fields,
    });
  }

  private backOnRedis(): void {
    if (!this.fellBack) return;
    this.fellBack = false;
    this.deps.logger.info("read gates: redis back; limits on expensive reads hold across instances");
  }
}
