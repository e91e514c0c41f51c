import { fileURLToPath } from "node:url";
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { longestReplySeconds, REPLY_BOUNDS } from "./limits.ts";

/** The repository root: the embedded data directory defaults to `<repo>/.data` (git-ignored). */
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

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

const port = z.coerce
  .number({ error: "must be a port number" })
  .int("must be a whole number")
  .min(0, "must be between 0 and 65535")
  .max(65535, "must be between 0 and 65535");

const postgresUrl = z.string().refine((value) => /^postgres(ql)?:\/\//.test(value) && URL.canParse(value), {
  message: "must be a postgres:// or postgresql:// URL",
});

const redisUrl = z.string().refine((value) => /^rediss?:\/\//.test(value) && URL.canParse(value), {
  message: "must be a redis:// or rediss:// URL",
});

const httpUrl = z.string().refine((value) => /^https?:\/\//.test(value) && URL.canParse(value), {
  message: "must be an http:// or https:// URL",
});
const httpOrWsUrl = z.string().refine((value) => /^(https?|wss?):\/\//.test(value) && URL.canParse(value), {
  message: "must be an http(s):// or ws(s):// URL",
});

/** A 256-bit key written as base64 (`openssl rand -base64 32`). */
const secretsKey = z
  .string()
  .trim()
  .refine((value) => Buffer.from(value, "base64").length === 32 && /^[A-Za-z0-9+/]+=*$/.test(value), {
    message: "must be 32 bytes written as base64 (openssl rand -base64 32)",
  })
  .transform((value) => Buffer.from(value, "base64"));

const positiveInt = z.coerce.number({ error: "must be a number" }).int("must be a whole number").positive();

const moneyString = z
  .string()
  .regex(/^\d{1,6}(\.\d{1,4})?$/, "must be a non-negative amount with at most 4 decimals, e.g. 0.01");

function isAddressOrRange(entry: string): boolean {
  if (!entry.includes("/")) return ipaddr.isValid(entry);
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}

/** Where OpenAI's own API lives, for speech when no other base URL is configured. */
const OPENAI_API_BASE = "https://api.openai.com/v1";
const DEEPGRAM_API_BASE = "wss://api.deepgram.com/v1";

const emptyAsUndefined = (value: unknown) => (value === "" ? undefined : value);

/** A mail server, its credentials (if any) in the URL: smtps:// is TLS from the start, smtp:// upgrades by STARTTLS. */
const smtpUrl = z.string().refine((value) => /^smtps?:\/\/[^/?#]/.test(value) && URL.canParse(value), {
  message: "must be an smtp:// or smtps:// URL, e.g. smtps://user:password@mail.example.com",
});

/** `address` or `Name <address>` on one line (it becomes the From header). */
const mailFrom = z
  .string()
  .trim()
  .regex(
    /^(?:[^\r\n<>@]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/,
    "must be an address or Name <address> on one line, e.g. Voxgate <voxgate@example.com>",
  );

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
    PORT: port.default(4000),
    HOST: z.string().min(1).default("127.0.0.1"),
    VOXGATE_DATA_DIR: z.string().min(1).default(`${repoRoot}.data`),
    VOXGATE_PGLITE_SHARED_BUFFERS: z
      .string()
      .regex(/^[1-9]\d{0,5}(kB|MB|GB)$/, "must be a size such as 16MB, 512kB or 1GB")
      .default(DEFAULT_PGLITE_SHARED_BUFFERS),
    DATABASE_URL: z.preprocess(emptyAsUndefined, postgresUrl.optional()),
    REDIS_URL: z.preprocess(emptyAsUndefined, redisUrl.optional()),
    OPENAI_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
    OPENAI_BASE_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
    PUBLIC_BASE_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
    LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
    LOG_FORMAT: z.preprocess(emptyAsUndefined, z.enum(["json", "pretty"]).optional()),
    SESSION_TTL_HOURS: positiveInt.default(24 * 7),
    VOXGATE_CREDENTIAL_CACHE_SECONDS: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(0, "must be 0 (no cache) or more")
      .max(3600, "must be at most 3600")
      .default(30),
    VOXGATE_ASSISTANT_CACHE_SECONDS: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(0, "must be 0 (no cache) or more")
      .max(3600, "must be at most 3600")
      .default(30),
    OPENAI_MODEL: z.string().min(1).default("gpt-4o-mini"),
    OPENAI_TIMEOUT_SECONDS: positiveInt.max(600, "must be at most 600").default(60),
    OPENAI_EMBEDDING_MODEL: z.string().min(1).default("text-embedding-3-small"),
    OPENAI_EMBEDDING_DIMENSIONS: positiveInt.max(4000, "must be at most 4000").default(1536),
    OPENAI_TRANSCRIBE_MODEL: z.string().min(1).default("gpt-4o-mini-transcribe"),
    OPENAI_TTS_MODEL: z.string().min(1).default("gpt-4o-mini-tts"),
    OPENAI_STT_BASE_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
    OPENAI_STT_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
    OPENAI_TTS_BASE_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
    OPENAI_TTS_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
    OPENAI_REALTIME_MODEL: z.string().min(1).default("gpt-realtime"),
    OPENAI_REALTIME_BASE_URL: z.preprocess(emptyAsUndefined, httpOrWsUrl.optional()),
    OPENAI_REALTIME_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
    OPENAI_REALTIME_DIALECT: z.enum(["ga", "beta"]).default("ga"),
    VOXGATE_MAX_LIVE_MEDIA_SESSIONS: positiveInt.max(100_000, "must be at most 100000").default(100),
    VOXGATE_RELAY_THREAD_SLICE_US: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .refine(
        (value) => value === 0 || (value >= 100 && value <= 100_000),
        "must be 0 (off) or 100 to 100000",
      )
      .default(100),
    VOXGATE_SILERO_WORKER_BACKGROUND: z
      .enum(["true", "false"], { error: "must be true or false" })
      .default("false")
      .transform((value) => value === "true"),
    VOXGATE_OUTBOUND_ALLOWLIST: z.string().default(""),
    VOXGATE_TRUSTED_PROXIES: z
      .string()
      .default("")
      .transform((value) =>
        value
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .refine((entries) => entries.every(isAddressOrRange), {
        message: "must be a comma-separated list of IP addresses or CIDR ranges",
      }),
    VOXGATE_MESSAGE_PRICE: moneyString.default("0.01"),
    VOXGATE_REPLY_PRICE: moneyString.default("0.01"),
    VOXGATE_REPLY_RATE_LIMIT_PER_MINUTE: positiveInt.default(5),
    VOXGATE_WIDGET_RATE_LIMIT_PER_MINUTE: positiveInt.default(30),
    VOXGATE_CONVERSATION_RATE_LIMIT_PER_MINUTE: positiveInt.default(10),
    VOXGATE_LOGIN_FAILURES_PER_EMAIL: positiveInt.default(10),
    VOXGATE_LOGIN_FAILURES_PER_ADDRESS: positiveInt.default(100),
    VOXGATE_LOGIN_WINDOW_SECONDS: positiveInt.max(86_400, "must be at most 86400 (one day)").default(900),
    VOXGATE_REDIS_KEY_PREFIX: z
      .string()
      .regex(/^[\w:.-]{1,64}$/, "must be 1 to 64 letters, digits, _ : . or -")
      .default("voxgate"),
    VOXGATE_DOCUMENT_TIMEOUT_SECONDS: positiveInt.default(300),
    VOXGATE_RESERVATION_HOLD_SECONDS: positiveInt.max(86_400, "must be at most 86400").default(900),
    VOXGATE_WORKER_CONCURRENCY: positiveInt.max(32, "must be at most 32").default(2),
    VOXGATE_METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
    VOXGATE_METRICS_PORT: port.optional(),
    VOXGATE_DIALER_SWEEP_MS: positiveInt
      .min(10, "must be at least 10")
      .max(3_600_000, "must be at most 3600000 (one hour)")
      .default(5_000),
    VOXGATE_WEBHOOK_TIMEOUT_MS: positiveInt.max(60_000, "must be at most 60000").default(10_000),
    VOXGATE_WEBHOOK_RETRY_BASE_MS: positiveInt.max(3_600_000, "must be at most 3600000").default(10_000),
    VOXGATE_WEBHOOK_RETRY_MAX_DELAY_MS: positiveInt
      .max(86_400_000, "must be at most 86400000")
      .default(14_400_000),
    VOXGATE_WEBHOOK_MAX_ATTEMPTS: positiveInt.max(50, "must be at most 50").default(17),
    VOXGATE_WEBHOOK_CONCURRENCY: positiveInt.max(256, "must be at most 256").default(16),
    VOXGATE_WEBHOOK_ACCOUNT_CONCURRENCY: positiveInt.max(64, "must be at most 64").default(4),
    VOXGATE_INBOUND_WEBHOOK_TIMEOUT_MS: positiveInt.max(10_000, "must be at most 10000").default(3_000),
    VOXGATE_WEBHOOK_LOG_RETENTION_DAYS: positiveInt.max(3650, "must be at most 3650").default(30),
    VOXGATE_TEST_WEBHOOK_RATE_LIMIT_PER_MINUTE: positiveInt.default(10),
    VOXGATE_EVALUATION_RATE_LIMIT_PER_MINUTE: positiveInt.default(10),
    VOXGATE_EVALUATION_TIMEOUT_MS: positiveInt.max(600_000, "must be at most 600000").default(60_000),
    VOXGATE_EVALUATION_MAX_ATTEMPTS: positiveInt.max(10, "must be at most 10").default(4),
    VOXGATE_EVALUATION_RETRY_BASE_MS: positiveInt.max(3_600_000, "must be at most 3600000").default(30_000),
    VOXGATE_SEED_DEMO: z
      .enum(["true", "false"], { error: "must be true or false" })
      .default("true")
      .transform((value) => value === "true"),
    VOXGATE_TELEPHONY: z
      .enum(["simulated", "twilio"], { error: "must be simulated or twilio" })
      .default("simulated"),
    VOXGATE_CALL_PRICE_PER_MINUTE: moneyString.default("0.10"),
    VOXGATE_SMS_PRICE_PER_SEGMENT: moneyString.default("0.01"),
    VOXGATE_TEXT_SWEEP_MS: positiveInt
      .min(10, "must be at least 10")
      .max(3_600_000, "must be at most 3600000 (one hour)")
      .default(30_000),
    VOXGATE_MAX_CONCURRENT_CALLS: positiveInt.max(10_000, "must be at most 10000").default(10),
    VOXGATE_CALL_CLOCK_SPEED: z.coerce
      .number({ error: "must be a number" })
      .min(1, "must be at least 1")
      .max(1000, "must be at most 1000")
      .default(1),
    TWILIO_ACCOUNT_SID: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^AC[0-9a-fA-F]{32}$/, "must be AC followed by 32 hex digits")
        .optional(),
    ),
    TWILIO_AUTH_TOKEN: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
    TWILIO_API_BASE_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
    VOXGATE_MAX_CONNECTIONS_PER_IP: positiveInt.max(100_000, "must be at most 100000").default(512),
    VOXGATE_MAX_WEBSOCKETS_PER_IP: positiveInt.max(100_000, "must be at most 100000").default(256),
    VOXGATE_HTTP_HEADERS_TIMEOUT_SECONDS: positiveInt.max(600, "must be at most 600").default(20),
    VOXGATE_HTTP_REQUEST_TIMEOUT_SECONDS: positiveInt.max(3600, "must be at most 3600").default(60),
    VOXGATE_WS_INIT_TIMEOUT_SECONDS: positiveInt.max(600, "must be at most 600").default(10),
    VOXGATE_WS_IDLE_SECONDS: positiveInt.max(86_400, "must be at most 86400").default(60),
    VOXGATE_WS_PING_SECONDS: positiveInt.max(3600, "must be at most 3600").default(30),
    VOXGATE_SECRETS_KEY: z.preprocess(emptyAsUndefined, secretsKey.optional()),
    VOXGATE_SECRETS_PREVIOUS_KEYS: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .transform((value) =>
          value
            .split(",")
            .map((entry) => entry.trim())
            .filter(Boolean),
        )
        .pipe(z.array(secretsKey))
        .optional(),
    ),
    VOXGATE_CALENDAR_TIMEOUT_MS: positiveInt.max(60_000, "must be at most 60000").default(10_000),
    VOXGATE_GOOGLE_CLIENT_ID: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
    VOXGATE_GOOGLE_CLIENT_SECRET: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
    VOXGATE_GOOGLE_AUTH_URL: z.preprocess(
      emptyAsUndefined,
      httpUrl.default("https://accounts.google.com/o/oauth2/v2/auth"),
    ),
    VOXGATE_GOOGLE_TOKEN_URL: z.preprocess(
      emptyAsUndefined,
      httpUrl.default("https://oauth2.googleapis.com/token"),
    ),
    VOXGATE_GOOGLE_API_BASE_URL: z.preprocess(
      emptyAsUndefined,
      httpUrl.default("https://www.googleapis.com"),
    ),
    VOXGATE_MICROSOFT_CLIENT_ID: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
    VOXGATE_MICROSOFT_CLIENT_SECRET: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
    VOXGATE_MICROSOFT_AUTHORITY_URL: z.preprocess(
      emptyAsUndefined,
      httpUrl.default("https://login.microsoftonline.com/common/oauth2/v2.0"),
    ),
    VOXGATE_MICROSOFT_GRAPH_BASE_URL: z.preprocess(
      emptyAsUndefined,
      httpUrl.default("https://graph.microsoft.com/v1.0"),
    ),
    VOXGATE_CALCOM_API_BASE_URL: z.preprocess(emptyAsUndefined, httpUrl.default("https://api.cal.com")),
    VOXGATE_STT_PROVIDER: z.enum(["openai", "deepgram", "openai-realtime"]).default("openai"),
    VOXGATE_DEEPGRAM_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
    VOXGATE_DEEPGRAM_URL: z.preprocess(emptyAsUndefined, httpOrWsUrl.default(DEEPGRAM_API_BASE)),
    VOXGATE_DEEPGRAM_MODEL: z.string().min(1).default("nova-3"),
    VOXGATE_TTS_PROVIDER: z.enum(["openai", "elevenlabs", "cartesia"]).default("openai"),
    ELEVENLABS_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
    ELEVENLABS_BASE_URL: z.preprocess(emptyAsUndefined, httpOrWsUrl.default("wss://api.elevenlabs.io")),
    ELEVENLABS_MODEL: z.string().min(1).default("eleven_flash_v2_5"),
    ELEVENLABS_VOICE_ID: z.preprocess(emptyAsUndefined, z.string().optional()),
    CARTESIA_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
    CARTESIA_BASE_URL: z.preprocess(emptyAsUndefined, httpOrWsUrl.default("wss://api.cartesia.ai")),
    CARTESIA_MODEL: z.string().min(1).default("sonic-2"),
    CARTESIA_VERSION: z.string().min(1).default("2024-11-13"),
    CARTESIA_VOICE_ID: z.preprocess(emptyAsUndefined, z.string().optional()),
    VOXGATE_PGLITE_RECYCLE_MB: z.coerce
      .number({ error: "must be a number" })
      .int("must be a whole number")
      .min(0, "must be 0 (never) or more")
      .max(65_536, "must be at most 65536")
      .default(DEFAULT_PGLITE_RECYCLE_MB),
    VOXGATE_PGLITE_RECYCLE_IDLE_SECONDS: positiveInt.max(86_400, "must be at most 86400").default(20),
    VOXGATE_PGLITE_OPTIMIZING_COMPILER: z
      .enum(["true", "false"], { error: "must be true or false" })
      .default("false")
      .transform((value) => value === "true"),
    VOXGATE_VISITOR_COUNTRY_HEADER: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .regex(/^[A-Za-z0-9-]+$/, "must be an HTTP header name, e.g. CF-IPCountry")
        .transform((value) => value.toLowerCase())
        .optional(),
    ),
    VOXGATE_SMTP_URL: z.preprocess(emptyAsUndefined, smtpUrl.optional()),
    VOXGATE_MAIL_FROM: z.preprocess(emptyAsUndefined, mailFrom.optional()),
    VOXGATE_SMTP_TIMEOUT_SECONDS: positiveInt.max(300, "must be at most 300").default(20),
    VOXGATE_MAIL_RATE_LIMIT_PER_HOUR: positiveInt.max(10_000, "must be at most 10000").default(30),
    VOXGATE_READ_LEASE_SECONDS: positiveInt.max(600, "must be at most 600").default(30),
  })
  .superRefine((env, context) => {
    // Node refuses a headers timeout longer than the whole request's.
    if (env.VOXGATE_HTTP_HEADERS_TIMEOUT_SECONDS > env.VOXGATE_HTTP_REQUEST_TIMEOUT_SECONDS) {
      context.addIssue({
        code: "custom",
        path: ["VOXGATE_HTTP_HEADERS_TIMEOUT_SECONDS"],
        message: "must be at most VOXGATE_HTTP_REQUEST_TIMEOUT_SECONDS",
      });
    }
    // A reply must be stored while its money is still held, or it could only be refused.
    const longestReply = longestReplySeconds(env.OPENAI_TIMEOUT_SECONDS);
    if (env.VOXGATE_RESERVATION_HOLD_SECONDS <= longestReply) {
      context.addIssue({
        code: "custom",
        path: ["VOXGATE_RESERVATION_HOLD_SECONDS"],
        message:
          `must be more than the longest a reply can take, ${longestReply} s with OPENAI_TIMEOUT_SECONDS=` +
          `${env.OPENAI_TIMEOUT_SECONDS} (${REPLY_BOUNDS.modelRounds} model calls, each tried ` +
          `${REPLY_BOUNDS.modelAttempts} times, functions of up to ${REPLY_BOUNDS.toolTimeoutSeconds} s between ` +
          "them, and a minute more): raise it or lower OPENAI_TIMEOUT_SECONDS",
      });
    }
    if (env.VOXGATE_SMTP_URL && !env.VOXGATE_MAIL_FROM) {
      context.addIssue({
        code: "custom",
        path: ["VOXGATE_MAIL_FROM"],
        message: "is required when VOXGATE_SMTP_URL is set",
      });
    }
    // Deepgram's own service wants a key; a self-hosted one (another URL) may not.
    if (
      env.VOXGATE_STT_PROVIDER === "deepgram" &&
      !env.VOXGATE_DEEPGRAM_API_KEY &&
      env.VOXGATE_DEEPGRAM_URL === DEEPGRAM_API_BASE
    ) {
      context.addIssue({
        code: "custom",
        path: ["VOXGATE_DEEPGRAM_API_KEY"],
        message: "is required when VOXGATE_STT_PROVIDER=deepgram (unless VOXGATE_DEEPGRAM_URL is set)",
      });
    }
    // A streaming voice speaks with its key, and with a voice of its own for assistants whose voice is not its.
    if (env.VOXGATE_TTS_PROVIDER !== "openai") {
      const prefix = env.VOXGATE_TTS_PROVIDER === "elevenlabs" ? "ELEVENLABS" : "CARTESIA";
      for (const name of [`${prefix}_API_KEY`, `${prefix}_VOICE_ID`] as const) {
        if (!env[name])
          context.addIssue({
            code: "custom",
            path: [name],
            message: `is required when VOXGATE_TTS_PROVIDER=${env.VOXGATE_TTS_PROVIDER}`,
          });
      }
    }
    if (env.VOXGATE_TELEPHONY !== "twilio") return;
    for (const name of ["TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN"] as const) {
      if (!env[name])
        context.addIssue({
          code: "custom",
          path: [name],
          message: "is required when VOXGATE_TELEPHONY=twilio",
        });
    }
    if (env.VOXGATE_CALL_CLOCK_SPEED !== 1) {
      context.addIssue({
        code: "custom",
        path: ["VOXGATE_CALL_CLOCK_SPEED"],
        message: "must be 1 with a real carrier (it speeds up simulated calls only)",
      });
    }
  });

export type EnvInput = Partial<Record<keyof z.input<typeof EnvSchema>, string>>;

/** Validated configuration. Only this module reads `process.env`. */
export interface Config {
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string;
  dataDir: string;
  /**
   * The embedded database's buffer pool (PostgreSQL's shared_buffers), resident from its start: more
   * keeps a large knowledge base's pages in the database, less keeps an idle server small.
   */
  pgliteSharedBuffers: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  openai: {
    apiKey: string | undefined;
    baseUrl: string | undefined;
    model: string;
    embeddingModel: string;
    embeddingDimensions: number;
    /** How long one chat completion may take before the reply fails (and is not charged). */
    timeoutSeconds: number;
  };
  /**
   * Hosts, IPs or CIDR ranges that outbound requests (website ingestion, tool webhooks) may reach
   * even though they are private or loopback. Empty in production; tests allow their local servers.
   */
  outboundAllowList: string[];
  /** Reverse proxies whose X-Forwarded-For names the client (per-IP rate limits); empty: trust none. */
  trustedProxies: string[];
  pricing: { messagePrice: string; replyPrice: string };
  /**
   * Requests per minute: generate-reply per API token; widget requests per client IP; widget
   * messages per conversation.
   */
  rateLimits: {
    replyPerMinute: number;
    widgetPerMinute: number;
    conversationPerMinute: number;
    /** sendTestWebhook and evaluateConversation, per account. */
    testWebhookPerMinute: number;
    evaluationPerMinute: number;
  };
  /**
   * Failed logins allowed per email and per client address within a fixed window; beyond either,
   * logins answer RATE_LIMITED until the window ends. A successful login clears its email's count.
   */
  loginThrottle: { failuresPerEmail: number; failuresPerAddress: number; windowSeconds: number };
  /** Prefix of the keys Voxgate keeps in Redis (rate-limit counters), so deployments can share one Redis. */
  redisKeyPrefix: string;
  documentTimeoutSeconds: number;
  /**
   * How long money reserved for a reply stays held: past it, a reservation that was neither settled
   * nor refunded (its process stopped mid-reply) is refunded by the billing sweep.
   */
  reservationHoldSeconds: number;
  workerConcurrency: number;
  /**
   * Prometheus /metrics: off unless a token protects it on the main port, or a port of its own (on
   * HOST, for a network the public cannot reach) serves it; with both, the separate port also asks
   * for the token.
   */
  metrics: { token: string | undefined; port: number | undefined };
  /**
   * The campaign dialer: how often each instance looks for leads that came due (retry times, a
   * calling window that opened) and repairs leads a crash left behind. A finished call triggers
   * the next dial at once; this bounds the wait for everything else.
   */
  dialer: { sweepIntervalMs: number };
  /** Base of every absolute URL the API returns (pagination links, widget script); no trailing slash. */
  publicBaseUrl: string;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  /** JSON lines (the default in production) or readable lines (elsewhere). */
  logFormat: "json" | "pretty";
  sessionTtlHours: number;
  /**
   * How long a successful authentication is reused without asking the database; 0 turns the cache
   * off. Revocations reach every instance's cache at once, so this only bounds staleness for changes
   * that announce nothing.
   */
  credentialCacheSeconds: number;
  /**
   * How long an instance reuses an assistant's reply settings without a database lookup; 0 turns the
   * cache off. Changes through the API reach every instance's cache at once, so this only bounds
   * staleness for changes that announce nothing.
   */
  assistantCacheSeconds: number;
  seedDemo: boolean;
  telephony: TelephonyConfig;
  /**
   * Delivery of webhooks (docs/webhooks.md): the time one attempt may take, the retry schedule
   * (exponential from `retryBaseMs`, each delay at most `retryMaxDelayMs`, with jitter; about a day
   * with the defaults), how many deliveries run at once in this instance and per account, and the
   * time the inbound webhook has to answer before a call is answered with the assistant's defaults.
   */
  webhooks: {
    timeoutMs: number;
    retryBaseMs: number;
    retryMaxDelayMs: number;
    maxAttempts: number;
    concurrency: number;
    accountConcurrency: number;
    inboundTimeoutMs: number;
    /** Delivered and failed events (and their attempts) older than this are deleted from the log. */
    logRetentionDays: number;
  };
  /** Post-call evaluation: the model's time per attempt, attempts, and the first retry's delay (doubling). */
  evaluation: { timeoutMs: number; maxAttempts: number; retryBaseMs: number };
  voice: VoiceConfig;
  connections: ConnectionLimits;
  /**
   * Seals stored credentials (calendar connections) with AES-256-GCM. `key` seals; `previousKeys` only
   * open what older keys sealed (rotation). Without a key, one is generated into the data directory
   * on first use (docs/calendars.md#encryption).
   */
  secrets: { key: Buffer | undefined; previousKeys: Buffer[] };
  /**
   * Calendar providers (docs/calendars.md): one request may take `timeoutMs`; Google and Microsoft
   * connect through the server's OAuth client (null without its id and secret); base URLs point
   * tests at local stand-ins.
   */
  calendars: {
    timeoutMs: number;
    google: {
      client: { id: string; secret: string } | null;
      authUrl: string;
      tokenUrl: string;
      apiBaseUrl: string;
    };
    microsoft: { client: { id: string; secret: string } | null; authorityUrl: string; graphBaseUrl: string };
    calcomApiBaseUrl: string;
  };
  /** How the embedded database's process gives memory back (docs/architecture.md, "The embedded store's memory"). */
  pglite: PgliteTuning;
  /**
   * The request header a trusted proxy sets to the visitor's country (ISO 3166 alpha-2, e.g.
   * CF-IPCountry), lower-cased; null: the country of widget visitors is not known.
   */
  visitorCountryHeader: string | null;
  /**
   * Email of invitation and reset links through an SMTP server (docs/operations.md#email); null: links
   * are only shown in the console, as without any mail server.
   */
  mail: MailConfig | null;
  /**
   * With REDIS_URL, how long a place of an expensive read (the Overview, the calls export) is held in
   * Redis without renewal: a running read renews it every third of this; an instance that dies holding
   * places gives them back after it (docs/operations.md#expensive-reads-across-instances).
   */
  readLeaseSeconds: number;
}

export interface MailConfig {
  /** smtp:// or smtps:// with credentials: a secret, never logged. */
  smtpUrl: string;
  from: string;
  /** Connecting, the server's greeting and each exchange with it must take no longer than this. */
  timeoutMs: number;
  /** Emails one account may have sent per hour (invitations, resends and reset links together). */
  perAccountPerHour: number;
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

/**
 * What one client may hold open and how long a connection may stay slow or idle (docs/operations.md#limits).
 * The per-IP caps count TCP connections by the socket's address (a trusted proxy's are not counted:
 * it carries many clients) and WebSockets by the resolved client address.
 */
export interface ConnectionLimits {
  maxPerAddress: number;
  maxWebSocketsPerAddress: number;
  /** A request's headers, and the whole request (body included), must arrive within these. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** graphql-ws's connection_init and a Twilio media stream's start must come within this. */
  webSocketInitMs: number;
  /** An anonymous graphql-ws socket with no operation running is closed after this. */
  webSocketIdleMs: number;
  /** Each socket (but Twilio's media streams) is pinged this often; one that missed the last pong is cut. */
  webSocketPingMs: number;
}

/** The media plane (modules/voice): speech endpoints and how many live calls one instance carries. */
export interface VoiceConfig {
  transcribeModel: string;
  ttsModel: string;
  /** `/audio/transcriptions` under this base (…/v1); defaults to OPENAI_BASE_URL and OPENAI_API_KEY. */
  stt: { baseUrl: string; apiKey: string | undefined };
  /** `/audio/speech` under this base; defaults to OPENAI_BASE_URL and OPENAI_API_KEY. */
  tts: { baseUrl: string; apiKey: string | undefined };
  timeoutSeconds: number;
  /**
   * The speech-to-speech model of multimodal and dualplex calls (OpenAI Realtime protocol over a
   * WebSocket at `{baseUrl}/realtime?model=…`); `dialect` picks the GA event and session shapes or the
   * beta ones that many self-hosted servers still speak.
   */
  realtime: { baseUrl: string; apiKey: string | undefined; model: string; dialect: "ga" | "beta" };
  /**
   * Streaming text-to-speech (WebSocket input streaming): `provider` speaks pipeline answers unless an
   * assistant's catalogue voice names another configured one; `openai` is the batch `/audio/speech`.
   * A provider is configured when it has a key; `voiceId` speaks for voices of another provider.
   */
  streamingTts: {
    provider: "openai" | "elevenlabs" | "cartesia";
    elevenlabs: { baseUrl: string; apiKey: string; model: string; voiceId: string | undefined } | null;
    cartesia: {
      baseUrl: string;
      apiKey: string;
      model: string;
      version: string;
      voiceId: string | undefined;
    } | null;
  };
  /** Calls whose audio this instance relays at once; past it a call is refused with a spoken message. */
  maxLiveSessions: number;
  /**
   * The scheduling slice (µs) the server asks Linux for its main thread, which relays every call's
   * frames: short, so a frame preempts Silero's worker and other threads at once (modules/media/thread-slice.ts).
   * 0 leaves the kernel's default.
   */
  relayThreadSliceUs: number;
  /**
   * Silero's worker thread runs in the background of the relay's (SCHED_BATCH, a 10 ms slice: it takes
   * the core from no one when it wakes; modules/voice/silero-worker.ts). Off by default: on a busy
   * machine such a thread falls behind (docs/voice.md).
   */
  sileroWorkerBackground: boolean;
  /**
   * Speech-to-text as the caller speaks (pipeline mode): Deepgram live or OpenAI realtime
   * transcription, with the batch endpoint (`stt`) as the fallback; `null`: batch only.
   */
  streamingStt: "deepgram" | "openai-realtime" | null;
  /** Deepgram live streaming: `{url}/listen` over a WebSocket. */
  deepgram: { url: string; apiKey: string | undefined; model: string };
  /**
   * Each streaming voice's endpoint, model and default voice whether or not the deployment has a key
   * for it: an account's own key reaches the provider with these (docs/voice.md#providers-and-models).
   */
  accountTts: {
    elevenlabs: { baseUrl: string; model: string; voiceId: string | undefined };
    cartesia: { baseUrl: string; model: string; version: string; voiceId: string | undefined };
  };
}

export interface TelephonyConfig {
  /** The carrier of phone calls and numbers: the built-in simulation, or Twilio. */
  provider: "simulated" | "twilio";
  /** Charged per started minute of an answered call; one minute is reserved when a call starts. */
  pricePerMinute: string;
  /** Charged per segment of an outbound text (docs/sms.md). */
  smsPricePerSegment: string;
  /** How often the sweep sends texts that came due or were left queued (docs/sms.md). */
  textSweepIntervalMs: number;
  /** Phone calls an account may have running (not yet ended) at once. */
  maxConcurrentCalls: number;
  /**
   * How much faster than real time call clocks run (ringing, conversation, billing minutes,
   * max duration): tests and demos of the simulated carrier use more than 1; a real carrier needs 1.
   */
  clockSpeed: number;
  /** Set when the provider is Twilio. `apiBaseUrl` replaces https://api.twilio.com (a local fake in tests). */
  twilio: { accountSid: string; authToken: string; apiBaseUrl: string | undefined } | null;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Parses a set of variables (defaults to `process.env`) into a typed config, naming every bad variable. */
export function loadConfig(source: EnvInput | NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map(
        (issue) =>
          `${issue.path.join(".")}: ${issue.message} (got ${describeValue(
            String(issue.path[0]),
            (source as Record<string, unknown>)[String(issue.path[0])],
          )})`,
      ),
    );
  }
  const env = parsed.data;
  return {
    nodeEnv: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    dataDir: env.VOXGATE_DATA_DIR,
    pgliteSharedBuffers: env.VOXGATE_PGLITE_SHARED_BUFFERS,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    openai: {
      apiKey: env.OPENAI_API_KEY,
      baseUrl: env.OPENAI_BASE_URL,
      model: env.OPENAI_MODEL,
      embeddingModel: env.OPENAI_EMBEDDING_MODEL,
      embeddingDimensions: env.OPENAI_EMBEDDING_DIMENSIONS,
      timeoutSeconds: env.OPENAI_TIMEOUT_SECONDS,
    },
    outboundAllowList: env.VOXGATE_OUTBOUND_ALLOWLIST.split(",")
      .map((entry) => entry.trim())
      .filter(Boolean),
    trustedProxies: env.VOXGATE_TRUSTED_PROXIES,
    pricing: { messagePrice: env.VOXGATE_MESSAGE_PRICE, replyPrice: env.VOXGATE_REPLY_PRICE },
    rateLimits: {
      replyPerMinute: env.VOXGATE_REPLY_RATE_LIMIT_PER_MINUTE,
      widgetPerMinute: env.VOXGATE_WIDGET_RATE_LIMIT_PER_MINUTE,
      conversationPerMinute: env.VOXGATE_CONVERSATION_RATE_LIMIT_PER_MINUTE,
      testWebhookPerMinute: env.VOXGATE_TEST_WEBHOOK_RATE_LIMIT_PER_MINUTE,
      evaluationPerMinute: env.VOXGATE_EVALUATION_RATE_LIMIT_PER_MINUTE,
    },
    loginThrottle: {
      failuresPerEmail: env.VOXGATE_LOGIN_FAILURES_PER_EMAIL,
      failuresPerAddress: env.VOXGATE_LOGIN_FAILURES_PER_ADDRESS,
      windowSeconds: env.VOXGATE_LOGIN_WINDOW_SECONDS,
    },
    redisKeyPrefix: env.VOXGATE_REDIS_KEY_PREFIX,
    documentTimeoutSeconds: env.VOXGATE_DOCUMENT_TIMEOUT_SECONDS,
    reservationHoldSeconds: env.VOXGATE_RESERVATION_HOLD_SECONDS,
    workerConcurrency: env.VOXGATE_WORKER_CONCURRENCY,
    metrics: { token: env.VOXGATE_METRICS_TOKEN, port: env.VOXGATE_METRICS_PORT },
    dialer: { sweepIntervalMs: env.VOXGATE_DIALER_SWEEP_MS },
    publicBaseUrl: (env.PUBLIC_BASE_URL ?? `http://${displayHost(env.HOST)}:${env.PORT}`).replace(/\/+$/, ""),
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT ?? (env.NODE_ENV === "production" ? "json" : "pretty"),
    sessionTtlHours: env.SESSION_TTL_HOURS,
    credentialCacheSeconds: env.VOXGATE_CREDENTIAL_CACHE_SECONDS,
    assistantCacheSeconds: env.VOXGATE_ASSISTANT_CACHE_SECONDS,
    seedDemo: env.VOXGATE_SEED_DEMO,
    webhooks: {
      timeoutMs: env.VOXGATE_WEBHOOK_TIMEOUT_MS,
      retryBaseMs: env.VOXGATE_WEBHOOK_RETRY_BASE_MS,
      retryMaxDelayMs: env.VOXGATE_WEBHOOK_RETRY_MAX_DELAY_MS,
      maxAttempts: env.VOXGATE_WEBHOOK_MAX_ATTEMPTS,
      concurrency: env.VOXGATE_WEBHOOK_CONCURRENCY,
      accountConcurrency: env.VOXGATE_WEBHOOK_ACCOUNT_CONCURRENCY,
      inboundTimeoutMs: env.VOXGATE_INBOUND_WEBHOOK_TIMEOUT_MS,
      logRetentionDays: env.VOXGATE_WEBHOOK_LOG_RETENTION_DAYS,
    },
    evaluation: {
      timeoutMs: env.VOXGATE_EVALUATION_TIMEOUT_MS,
      maxAttempts: env.VOXGATE_EVALUATION_MAX_ATTEMPTS,
      retryBaseMs: env.VOXGATE_EVALUATION_RETRY_BASE_MS,
    },
    voice: {
      transcribeModel: env.OPENAI_TRANSCRIBE_MODEL,
      ttsModel: env.OPENAI_TTS_MODEL,
      stt: {
        baseUrl: (env.OPENAI_STT_BASE_URL ?? env.OPENAI_BASE_URL ?? OPENAI_API_BASE).replace(/\/+$/, ""),
        apiKey: env.OPENAI_STT_API_KEY ?? env.OPENAI_API_KEY,
      },
      tts: {
        baseUrl: (env.OPENAI_TTS_BASE_URL ?? env.OPENAI_BASE_URL ?? OPENAI_API_BASE).replace(/\/+$/, ""),
        apiKey: env.OPENAI_TTS_API_KEY ?? env.OPENAI_API_KEY,
      },
      timeoutSeconds: env.OPENAI_TIMEOUT_SECONDS,
      realtime: {
        baseUrl: (env.OPENAI_REALTIME_BASE_URL ?? env.OPENAI_BASE_URL ?? OPENAI_API_BASE)
          .replace(/\/+$/, "")
          .replace(/^http/, "ws"),
        apiKey: env.OPENAI_REALTIME_API_KEY ?? env.OPENAI_API_KEY,
        model: env.OPENAI_REALTIME_MODEL,
        dialect: env.OPENAI_REALTIME_DIALECT,
      },
      maxLiveSessions: env.VOXGATE_MAX_LIVE_MEDIA_SESSIONS,
      relayThreadSliceUs: env.VOXGATE_RELAY_THREAD_SLICE_US,
      sileroWorkerBackground: env.VOXGATE_SILERO_WORKER_BACKGROUND,
      streamingStt: env.VOXGATE_STT_PROVIDER === "openai" ? null : env.VOXGATE_STT_PROVIDER,
      deepgram: {
        url: env.VOXGATE_DEEPGRAM_URL.replace(/\/+$/, "").replace(/^http/, "ws"),
        apiKey: env.VOXGATE_DEEPGRAM_API_KEY,
        model: env.VOXGATE_DEEPGRAM_MODEL,
      },
      streamingTts: {
        provider: env.VOXGATE_TTS_PROVIDER,
        elevenlabs: env.ELEVENLABS_API_KEY
          ? {
              baseUrl: env.ELEVENLABS_BASE_URL.replace(/\/+$/, "").replace(/^http/, "ws"),
              apiKey: env.ELEVENLABS_API_KEY,
              model: env.ELEVENLABS_MODEL,
              voiceId: env.ELEVENLABS_VOICE_ID,
            }
          : null,
        cartesia: env.CARTESIA_API_KEY
          ? {
              baseUrl: env.CARTESIA_BASE_URL.replace(/\/+$/, "").replace(/^http/, "ws"),
              apiKey: env.CARTESIA_API_KEY,
              model: env.CARTESIA_MODEL,
              version: env.CARTESIA_VERSION,
              voiceId: env.CARTESIA_VOICE_ID,
            }
          : null,
      },
      accountTts: {
        elevenlabs: {
          baseUrl: env.ELEVENLABS_BASE_URL.replace(/\/+$/, "").replace(/^http/, "ws"),
          model: env.ELEVENLABS_MODEL,
          voiceId: env.ELEVENLABS_VOICE_ID,
        },
        cartesia: {
          baseUrl: env.CARTESIA_BASE_URL.replace(/\/+$/, "").replace(/^http/, "ws"),
          model: env.CARTESIA_MODEL,
          version: env.CARTESIA_VERSION,
          voiceId: env.CARTESIA_VOICE_ID,
        },
      },
    },
    connections: {
      maxPerAddress: env.VOXGATE_MAX_CONNECTIONS_PER_IP,
      maxWebSocketsPerAddress: env.VOXGATE_MAX_WEBSOCKETS_PER_IP,
      headersTimeoutMs: env.VOXGATE_HTTP_HEADERS_TIMEOUT_SECONDS * 1000,
      requestTimeoutMs: env.VOXGATE_HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
      webSocketInitMs: env.VOXGATE_WS_INIT_TIMEOUT_SECONDS * 1000,
      webSocketIdleMs: env.VOXGATE_WS_IDLE_SECONDS * 1000,
      webSocketPingMs: env.VOXGATE_WS_PING_SECONDS * 1000,
    },
    secrets: { key: env.VOXGATE_SECRETS_KEY, previousKeys: env.VOXGATE_SECRETS_PREVIOUS_KEYS ?? [] },
    calendars: {
      timeoutMs: env.VOXGATE_CALENDAR_TIMEOUT_MS,
      google: {
        client:
          env.VOXGATE_GOOGLE_CLIENT_ID && env.VOXGATE_GOOGLE_CLIENT_SECRET
            ? { id: env.VOXGATE_GOOGLE_CLIENT_ID, secret: env.VOXGATE_GOOGLE_CLIENT_SECRET }
            : null,
        authUrl: env.VOXGATE_GOOGLE_AUTH_URL,
        tokenUrl: env.VOXGATE_GOOGLE_TOKEN_URL,
        apiBaseUrl: env.VOXGATE_GOOGLE_API_BASE_URL.replace(/\/+$/, ""),
      },
      microsoft: {
        client:
          env.VOXGATE_MICROSOFT_CLIENT_ID && env.VOXGATE_MICROSOFT_CLIENT_SECRET
            ? { id: env.VOXGATE_MICROSOFT_CLIENT_ID, secret: env.VOXGATE_MICROSOFT_CLIENT_SECRET }
            : null,
        authorityUrl: env.VOXGATE_MICROSOFT_AUTHORITY_URL.replace(/\/+$/, ""),
        graphBaseUrl: env.VOXGATE_MICROSOFT_GRAPH_BASE_URL.replace(/\/+$/, ""),
      },
      calcomApiBaseUrl: env.VOXGATE_CALCOM_API_BASE_URL.replace(/\/+$/, ""),
    },
    telephony: {
      provider: env.VOXGATE_TELEPHONY,
      pricePerMinute: env.VOXGATE_CALL_PRICE_PER_MINUTE,
      smsPricePerSegment: env.VOXGATE_SMS_PRICE_PER_SEGMENT,
      textSweepIntervalMs: env.VOXGATE_TEXT_SWEEP_MS,
      maxConcurrentCalls: env.VOXGATE_MAX_CONCURRENT_CALLS,
      clockSpeed: env.VOXGATE_CALL_CLOCK_SPEED,
      twilio:
        env.VOXGATE_TELEPHONY === "twilio" && env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN
          ? {
              accountSid: env.TWILIO_ACCOUNT_SID,
              authToken: env.TWILIO_AUTH_TOKEN,
              apiBaseUrl: env.TWILIO_API_BASE_URL?.replace(/\/+$/, ""),
            }
          : null,
    },
    pglite: {
      recycleMb: env.VOXGATE_PGLITE_RECYCLE_MB,
      recycleIdleMs: env.VOXGATE_PGLITE_RECYCLE_IDLE_SECONDS * 1000,
      optimizingCompiler: env.VOXGATE_PGLITE_OPTIMIZING_COMPILER,
    },
    visitorCountryHeader: env.VOXGATE_VISITOR_COUNTRY_HEADER ?? null,
    mail:
      env.VOXGATE_SMTP_URL && env.VOXGATE_MAIL_FROM
        ? {
            smtpUrl: env.VOXGATE_SMTP_URL,
            from: env.VOXGATE_MAIL_FROM,
            timeoutMs: env.VOXGATE_SMTP_TIMEOUT_SECONDS * 1000,
            perAccountPerHour: env.VOXGATE_MAIL_RATE_LIMIT_PER_HOUR,
          }
        : null,
    readLeaseSeconds: env.VOXGATE_READ_LEASE_SECONDS,
  };
}

/** Keys never reach a log, not even a malformed one (it may be a real key cut short). */
const SECRET_VARIABLES = new Set([
  "VOXGATE_SECRETS_KEY",
  "VOXGATE_SECRETS_PREVIOUS_KEYS",
  "VOXGATE_GOOGLE_CLIENT_SECRET",
  "VOXGATE_MICROSOFT_CLIENT_SECRET",
  "VOXGATE_SMTP_URL",
]);

function describeValue(name: string, value: unknown): string {
  if (SECRET_VARIABLES.has(name) && typeof value === "string") return `${value.length} characters, not shown`;
  return JSON.stringify(value);
}

function displayHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "localhost";
  return host.includes(":") ? `[${host}]` : host;
}

/**
 * What `voxgate test` (a client of a running server, e.g. in an owner's CI) reads of its environment:
 * the server's base URL and an API key. The key is never a command-line argument: those show in
 * process lists and CI logs.
 */
export function testClientEnv(source: Record<string, string | undefined> = process.env): {
  url: string | null;
  apiKey: string | null;
} {
  const read = (name: string) => {
    const value = source[name]?.trim();
    return value ? value : null;
  };
  return { url: read("VOXGATE_URL"), apiKey: read("VOXGATE_API_KEY") };
}
