// Where data lives: the embedded database (PGlite) and its tuning, PostgreSQL, Redis, the keys sealing stored
// credentials, and the background work and seeding done on that data.
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { commaSeparated, emptyAsUndefined, flag, positiveInt } from "./validators.ts";

/** The repository root: the embedded data directory defaults to `<repo>/.data` (git-ignored). */
const repoRoot = fileURLToPath(new URL("../../../../", import.meta.url));

/**
 * The embedded database's buffer pool unless VOXGATE_PGLITE_SHARED_BUFFERS says otherwise: PGlite's
 * own 128 MB made up most of an idle server's memory, and its data files stay in the operating
 * system's cache besides.
 */
export const DEFAULT_PGLITE_SHARED_BUFFERS = "16MB";

/**
 * The embedded database's process is replaced once it holds more than this (and is quiet): a fresh one
 * on an installation's data holds ~130-170 MB, a first start's (the data directory's creation,
 * migrations and seeding) ~700 MB, an ingestion's 300-500 MB.
 */
export const DEFAULT_PGLITE_RECYCLE_MB = 224;

const postgresUrl = z.string().refine((value) => /^postgres(ql)?:\/\//.test(value) && URL.canParse(value), {
  message: "must be a postgres:// or postgresql:// URL",
});

const redisUrl = z.string().refine((value) => /^rediss?:\/\//.test(value) && URL.canParse(value), {
  message: "must be a redis:// or rediss:// URL",
});

/** A 256-bit key written as base64 (`openssl rand -base64 32`). */
const secretsKey = z
  .string()
  .trim()
  .refine((value) => Buffer.from(value, "base64").length === 32 && /^[A-Za-z0-9+/]+=*$/.test(value), {
    message: "must be 32 bytes written as base64 (openssl rand -base64 32)",
  })
  .transform((value) => Buffer.from(value, "base64"));

export const storageEnv = z.object({
  VOXGATE_DATA_DIR: z.string().min(1).default(`${repoRoot}.data`),
  VOXGATE_PGLITE_SHARED_BUFFERS: z
    .string()
    .regex(/^[1-9]\d{0,5}(kB|MB|GB)$/, "must be a size such as 16MB, 512kB or 1GB")
    .default(DEFAULT_PGLITE_SHARED_BUFFERS),
  DATABASE_URL: z.preprocess(emptyAsUndefined, postgresUrl.optional()),
  REDIS_URL: z.preprocess(emptyAsUndefined, redisUrl.optional()),
  VOXGATE_REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[\w:.-]{1,64}$/, "must be 1 to 64 letters, digits, _ : . or -")
    .default("voxgate"),
  VOXGATE_WORKER_CONCURRENCY: positiveInt.max(32, "must be at most 32").default(2),
  VOXGATE_SEED_DEMO: flag("true"),
  VOXGATE_SECRETS_KEY: z.preprocess(emptyAsUndefined, secretsKey.optional()),
  VOXGATE_SECRETS_PREVIOUS_KEYS: z.preprocess(
    emptyAsUndefined,
    z.string().transform(commaSeparated).pipe(z.array(secretsKey)).optional(),
  ),
  VOXGATE_PGLITE_RECYCLE_MB: z.coerce
    .number({ error: "must be a number" })
    .int("must be a whole number")
    .min(0, "must be 0 (never) or more")
    .max(65_536, "must be at most 65536")
    .default(DEFAULT_PGLITE_RECYCLE_MB),
  VOXGATE_PGLITE_RECYCLE_IDLE_SECONDS: positiveInt.max(86_400, "must be at most 86400").default(20),
  VOXGATE_PGLITE_OPTIMIZING_COMPILER: flag("false"),
  VOXGATE_READ_LEASE_SECONDS: positiveInt.max(600, "must be at most 600").default(30),
});

/** Keys never reach a log, not even a malformed one (it may be a real key cut short). */
export const storageSecretVariables = ["VOXGATE_SECRETS_KEY", "VOXGATE_SECRETS_PREVIOUS_KEYS"];

export interface StorageSettings {
  dataDir: string;
  /**
   * The embedded database's buffer pool (PostgreSQL's shared_buffers), resident from its start: more
   * keeps a large knowledge base's pages in the database, less keeps an idle server small.
   */
  pgliteSharedBuffers: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Prefix of the keys Voxgate keeps in Redis (rate-limit counters), so deployments can share one Redis. */
  redisKeyPrefix: string;
  workerConcurrency: number;
  seedDemo: boolean;
  /**
   * Seals stored credentials (calendar connections) with AES-256-GCM. `key` seals; `previousKeys` only
   * open what older keys sealed (rotation). Without a key, one is generated into the data directory
   * on first use (docs/calendars.md#encryption).
   */
  secrets: { key: Buffer | undefined; previousKeys: Buffer[] };
  /** How the embedded database's process gives memory back (docs/architecture.md, "The embedded store's memory"). */
  pglite: PgliteTuning;
  /**
   * With REDIS_URL, how long a place of an expensive read (the Overview, the calls export) is held in
   * Redis without renewal: a running read renews it every third of this; an instance that dies holding
   * places gives them back after it (docs/operations.md#expensive-reads-across-instances).
   */
  readLeaseSeconds: number;
}

export interface PgliteTuning {
  /**
   * Its process is replaced by a fresh one once it holds more than this resident memory and has been
   * quiet for `recycleIdleMs` (WebAssembly memory never shrinks); 0 never replaces it.
   */
  recycleMb: number;
  recycleIdleMs: number;
  /**
   * Whether V8 may recompile PGlite's hot functions with its optimizing compiler. Off, it runs on the
   * baseline compiler only (Liftoff): ~50-80 MB less resident code and compiler memory.
   */
  optimizingCompiler: boolean;
}

export function storageSettings(env: z.output<typeof storageEnv>): StorageSettings {
  return {
    dataDir: env.VOXGATE_DATA_DIR,
    pgliteSharedBuffers: env.VOXGATE_PGLITE_SHARED_BUFFERS,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    redisKeyPrefix: env.VOXGATE_REDIS_KEY_PREFIX,
    workerConcurrency: env.VOXGATE_WORKER_CONCURRENCY,
    seedDemo: env.VOXGATE_SEED_DEMO,
    secrets: { key: env.VOXGATE_SECRETS_KEY, previousKeys: env.VOXGATE_SECRETS_PREVIOUS_KEYS ?? [] },
    pglite: {
      recycleMb: env.VOXGATE_PGLITE_RECYCLE_MB,
      recycleIdleMs: env.VOXGATE_PGLITE_RECYCLE_IDLE_SECONDS * 1000,
      optimizingCompiler: env.VOXGATE_PGLITE_OPTIMIZING_COMPILER,
    },
    readLeaseSeconds: env.VOXGATE_READ_LEASE_SECONDS,
  };
}
