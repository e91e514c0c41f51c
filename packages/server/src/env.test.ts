import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig, testClientEnv } from "./env.ts";

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe("configuration", () => {
  it("has working defaults for the embedded mode", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 4000,
      host: "127.0.0.1",
      databaseUrl: undefined,
      redisUrl: undefined,
      publicBaseUrl: "http://127.0.0.1:4000",
      pricing: { messagePrice: "0.01", replyPrice: "0.01" },
      rateLimits: { replyPerMinute: 5 },
      loginThrottle: { failuresPerEmail: 10, failuresPerAddress: 100, windowSeconds: 900 },
    });
    expect(config.dataDir).toMatch(/\.data$/);
  });

  it("names every variable with a wrong value", () => {
    const problems = problemsOf({
      PORT: "eighty",
      DATABASE_URL: "mysql://localhost/db",
      REDIS_URL: "localhost:6379",
      PUBLIC_BASE_URL: "voxgate.example.com",
      OPENAI_BASE_URL: "ftp://x",
    });
    for (const name of ["PORT", "DATABASE_URL", "REDIS_URL", "PUBLIC_BASE_URL", "OPENAI_BASE_URL"]) {
      expect(problems.some((problem) => problem.startsWith(`${name}:`))).toBe(true);
    }
    expect(problemsOf({ PORT: "70000" })[0]).toMatch(/^PORT: must be between 0 and 65535/);
  });

  it("takes secrets keys as 32 bytes of base64 and never shows a wrong one", () => {
    const key = Buffer.alloc(32, 7).toString("base64");
    const previous = Buffer.alloc(32, 9).toString("base64");
    expect(
      loadConfig({ VOXGATE_SECRETS_KEY: key, VOXGATE_SECRETS_PREVIOUS_KEYS: ` ${previous}, ` }).secrets,
    ).toEqual({
      key: Buffer.alloc(32, 7),
      previousKeys: [Buffer.alloc(32, 9)],
    });
    expect(loadConfig({}).secrets).toEqual({ key: undefined, previousKeys: [] });
    const short = key.slice(0, -4);
    const problems = problemsOf({
      VOXGATE_SECRETS_KEY: short,
      VOXGATE_SECRETS_PREVIOUS_KEYS: `${previous},nope`,
    });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^VOXGATE_SECRETS_KEY: must be 32 bytes written as base64/);
    expect(problems[0]).toContain("40 characters, not shown");
    expect(problems.join("\n")).not.toContain(short);
    expect(problems.join("\n")).not.toContain(previous);
  });

  it("configures the calendar providers' OAuth clients only with both id and secret, and base URLs", () => {
    const defaults = loadConfig({}).calendars;
    expect(defaults.google).toEqual({
      client: null,
      authUrl: "https://accounts.google.com/o/oauth2/v2/auth",
      tokenUrl: "https://oauth2.googleapis.com/token",
      apiBaseUrl: "https://www.googleapis.com",
    });
    expect(defaults.microsoft).toEqual({
      client: null,
      authorityUrl: "https://login.microsoftonline.com/common/oauth2/v2.0",
      graphBaseUrl: "https://graph.microsoft.com/v1.0",
    });
    expect(defaults.calcomApiBaseUrl).toBe("https://api.cal.com");
    const configured = loadConfig({
      VOXGATE_GOOGLE_CLIENT_ID: "google-id",
      VOXGATE_GOOGLE_CLIENT_SECRET: "google-secret",
      VOXGATE_MICROSOFT_CLIENT_ID: "ms-id",
      VOXGATE_GOOGLE_API_BASE_URL: "http://127.0.0.1:9000/",
      VOXGATE_CALCOM_API_BASE_URL: "http://127.0.0.1:9001//",
    }).calendars;
    expect(configured.google.client).toEqual({ id: "google-id", secret: "google-secret" });
    expect(configured.google.apiBaseUrl).toBe("http://127.0.0.1:9000");
    expect(configured.microsoft.client).toBeNull();
    expect(configured.calcomApiBaseUrl).toBe("http://127.0.0.1:9001");
    expect(problemsOf({ VOXGATE_MICROSOFT_GRAPH_BASE_URL: "ftp://x" })[0]).toMatch(
      /^VOXGATE_MICROSOFT_GRAPH_BASE_URL: must be an http/,
    );
  });

  it("accepts real values and normalises the public base URL", () => {
    const config = loadConfig({
      PORT: "8080",
      HOST: "0.0.0.0",
      DATABASE_URL: "postgresql://user:pw@db:5432/voxgate",
      REDIS_URL: "redis://cache:6379",
      PUBLIC_BASE_URL: "https://voice.example.com/",
      OPENAI_API_KEY: "sk-test",
      OPENAI_BASE_URL: "http://llm.internal/v1",
      VOXGATE_OUTBOUND_ALLOWLIST: "10.0.0.0/8, tools.internal",
    });
    expect(config.publicBaseUrl).toBe("https://voice.example.com");
    expect(config.databaseUrl).toBe("postgresql://user:pw@db:5432/voxgate");
    expect(config.outboundAllowList).toEqual(["10.0.0.0/8", "tools.internal"]);
    expect(loadConfig({ HOST: "0.0.0.0", PORT: "9" }).publicBaseUrl).toBe("http://localhost:9");
  });

  it("treats empty variables as unset", () => {
    expect(loadConfig({ DATABASE_URL: "", REDIS_URL: "" })).toMatchObject({
      databaseUrl: undefined,
      redisUrl: undefined,
    });
  });
});

it("reads the credential cache TTL, where 0 turns the cache off", () => {
  expect(loadConfig({}).credentialCacheSeconds).toBe(30);
  expect(loadConfig({ VOXGATE_CREDENTIAL_CACHE_SECONDS: "0" }).credentialCacheSeconds).toBe(0);
  for (const value of ["-1", "1.5", "3601", "soon"]) {
    const problems = problemsOf({ VOXGATE_CREDENTIAL_CACHE_SECONDS: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^VOXGATE_CREDENTIAL_CACHE_SECONDS: /);
  }
});

it("reads the embedded database's buffer pool as a PostgreSQL size, refusing anything else", () => {
  expect(loadConfig({}).pgliteSharedBuffers).toBe("16MB");
  expect(loadConfig({ VOXGATE_PGLITE_SHARED_BUFFERS: "512kB" }).pgliteSharedBuffers).toBe("512kB");
  // Passed to PostgreSQL as `-c shared_buffers=<value>`: nothing but a number and a unit gets through.
  for (const value of ["16", "16mb", "0MB", "16MB -c fsync=off", "1TB"]) {
    const problems = problemsOf({ VOXGATE_PGLITE_SHARED_BUFFERS: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^VOXGATE_PGLITE_SHARED_BUFFERS: must be a size/);
  }
});

it("validates the trusted proxies list", () => {
  expect(loadConfig({ VOXGATE_TRUSTED_PROXIES: "10.0.0.0/8, 192.0.2.1" }).trustedProxies).toEqual([
    "10.0.0.0/8",
    "192.0.2.1",
  ]);
  expect(problemsOf({ VOXGATE_TRUSTED_PROXIES: "proxy.internal" })[0]).toMatch(
    /^VOXGATE_TRUSTED_PROXIES: must be/,
  );
});

it("picks the carrier: simulated by default; Twilio needs its credentials and a real clock", () => {
  expect(loadConfig({}).telephony).toMatchObject({
    provider: "simulated",
    pricePerMinute: "0.10",
    maxConcurrentCalls: 10,
    clockSpeed: 1,
    twilio: null,
  });
  const problems = problemsOf({ VOXGATE_TELEPHONY: "twilio", VOXGATE_CALL_CLOCK_SPEED: "10" });
  for (const name of ["TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "VOXGATE_CALL_CLOCK_SPEED"]) {
    expect(problems.some((problem) => problem.startsWith(`${name}:`))).toBe(true);
  }
  expect(problemsOf({ TWILIO_ACCOUNT_SID: "not-a-sid" })[0]).toMatch(/^TWILIO_ACCOUNT_SID:/);
  const twilio = loadConfig({
    VOXGATE_TELEPHONY: "twilio",
    TWILIO_ACCOUNT_SID: `AC${"a".repeat(32)}`,
    TWILIO_AUTH_TOKEN: "secret",
    TWILIO_API_BASE_URL: "http://127.0.0.1:9999/",
  }).telephony;
  expect(twilio.twilio).toEqual({
    accountSid: `AC${"a".repeat(32)}`,
    authToken: "secret",
    apiBaseUrl: "http://127.0.0.1:9999",
  });
});

it("retries webhooks for about a day by default and bounds every webhook and evaluation setting", () => {
  expect(loadConfig({}).webhooks).toEqual({
    timeoutMs: 10_000,
    retryBaseMs: 10_000,
    retryMaxDelayMs: 14_400_000,
    maxAttempts: 17,
    concurrency: 16,
    accountConcurrency: 4,
    inboundTimeoutMs: 3_000,
    logRetentionDays: 30,
  });
  expect(loadConfig({}).evaluation).toEqual({ timeoutMs: 60_000, maxAttempts: 4, retryBaseMs: 30_000 });
  const problems = problemsOf({
    VOXGATE_WEBHOOK_MAX_ATTEMPTS: "0",
    VOXGATE_INBOUND_WEBHOOK_TIMEOUT_MS: "60000",
    VOXGATE_WEBHOOK_LOG_RETENTION_DAYS: "0",
  });
  expect(problems.some((problem) => problem.startsWith("VOXGATE_WEBHOOK_MAX_ATTEMPTS:"))).toBe(true);
  expect(problems.some((problem) => problem.startsWith("VOXGATE_INBOUND_WEBHOOK_TIMEOUT_MS:"))).toBe(true);
  expect(problems.some((problem) => problem.startsWith("VOXGATE_WEBHOOK_LOG_RETENTION_DAYS:"))).toBe(true);
});

it("bounds connections and their timeouts by default, and refuses a headers timeout past the request's", () => {
  expect(loadConfig({}).connections).toEqual({
    maxPerAddress: 512,
    maxWebSocketsPerAddress: 256,
    headersTimeoutMs: 20_000,
    requestTimeoutMs: 60_000,
    webSocketInitMs: 10_000,
    webSocketIdleMs: 60_000,
    webSocketPingMs: 30_000,
  });
  expect(
    problemsOf({ VOXGATE_HTTP_HEADERS_TIMEOUT_SECONDS: "90", VOXGATE_HTTP_REQUEST_TIMEOUT_SECONDS: "60" }),
  ).toEqual([
    'VOXGATE_HTTP_HEADERS_TIMEOUT_SECONDS: must be at most VOXGATE_HTTP_REQUEST_TIMEOUT_SECONDS (got "90")',
  ]);
  expect(problemsOf({ VOXGATE_MAX_WEBSOCKETS_PER_IP: "0" })).toHaveLength(1);
});

it("refuses a reservation hold shorter than the longest reply, naming both settings", () => {
  // Five model calls of 60 s, each tried twice, four rounds of 30 s functions, a minute more: 780 s.
  expect(loadConfig({}).reservationHoldSeconds).toBe(900);
  expect(problemsOf({ VOXGATE_RESERVATION_HOLD_SECONDS: "780" })).toEqual([
    'VOXGATE_RESERVATION_HOLD_SECONDS: must be more than the longest a reply can take, 780 s with OPENAI_TIMEOUT_SECONDS=60 (5 model calls, each tried 2 times, functions of up to 30 s between them, and a minute more): raise it or lower OPENAI_TIMEOUT_SECONDS (got "780")',
  ]);
  expect(problemsOf({ OPENAI_TIMEOUT_SECONDS: "90" })[0]).toMatch(
    /^VOXGATE_RESERVATION_HOLD_SECONDS: .* 1080 s /,
  );
  expect(
    loadConfig({ OPENAI_TIMEOUT_SECONDS: "90", VOXGATE_RESERVATION_HOLD_SECONDS: "1081" }).openai
      .timeoutSeconds,
  ).toBe(90);
});

it("reads the interval of the sweep that sends due texts, within 10 ms and an hour", () => {
  expect(loadConfig({}).telephony.textSweepIntervalMs).toBe(30_000);
  expect(loadConfig({ VOXGATE_TEXT_SWEEP_MS: "250" }).telephony.textSweepIntervalMs).toBe(250);
  expect(problemsOf({ VOXGATE_TEXT_SWEEP_MS: "5" })).toEqual([
    'VOXGATE_TEXT_SWEEP_MS: must be at least 10 (got "5")',
  ]);
});

it("picks the streaming speech-to-text: batch only by default; Deepgram's own service needs a key", () => {
  expect(loadConfig({}).voice).toMatchObject({
    streamingStt: null,
    deepgram: { url: "wss://api.deepgram.com/v1", apiKey: undefined, model: "nova-3" },
  });
  expect(problemsOf({ VOXGATE_STT_PROVIDER: "deepgram" })).toEqual([
    "VOXGATE_DEEPGRAM_API_KEY: is required when VOXGATE_STT_PROVIDER=deepgram (unless VOXGATE_DEEPGRAM_URL is set) (got undefined)",
  ]);
  expect(problemsOf({ VOXGATE_STT_PROVIDER: "whisper" })[0]).toMatch(/^VOXGATE_STT_PROVIDER:/);
  // A self-hosted server (over http as well) needs no key.
  expect(
    loadConfig({ VOXGATE_STT_PROVIDER: "deepgram", VOXGATE_DEEPGRAM_URL: "http://127.0.0.1:9002/v1/" }).voice,
  ).toMatchObject({
    streamingStt: "deepgram",
    deepgram: { url: "ws://127.0.0.1:9002/v1", apiKey: undefined },
  });
  expect(loadConfig({ VOXGATE_STT_PROVIDER: "openai-realtime" }).voice.streamingStt).toBe("openai-realtime");
});

it("configures streaming text-to-speech providers by key, and requires the chosen one's key and voice", () => {
  expect(loadConfig({}).voice.streamingTts).toEqual({ provider: "openai", elevenlabs: null, cartesia: null });
  expect(
    loadConfig({
      VOXGATE_TTS_PROVIDER: "elevenlabs",
      ELEVENLABS_API_KEY: "el",
      ELEVENLABS_VOICE_ID: "v1",
      ELEVENLABS_BASE_URL: "https://eleven.example/",
      CARTESIA_API_KEY: "ca",
    }).voice.streamingTts,
  ).toEqual({
    provider: "elevenlabs",
    elevenlabs: { baseUrl: "wss://eleven.example", apiKey: "el", model: "eleven_flash_v2_5", voiceId: "v1" },
    cartesia: {
      baseUrl: "wss://api.cartesia.ai",
      apiKey: "ca",
      model: "sonic-2",
      version: "2024-11-13",
      voiceId: undefined,
    },
  });
  expect(problemsOf({ VOXGATE_TTS_PROVIDER: "cartesia", CARTESIA_API_KEY: "ca" })).toEqual([
    "CARTESIA_VOICE_ID: is required when VOXGATE_TTS_PROVIDER=cartesia (got undefined)",
  ]);
  expect(problemsOf({ VOXGATE_TTS_PROVIDER: "azure" })).toHaveLength(1);
});

it("keeps the streaming voices' endpoints for accounts' own keys when the deployment has no key", () => {
  expect(loadConfig({ ELEVENLABS_BASE_URL: "https://eleven.example/" }).voice.accountTts).toEqual({
    elevenlabs: { baseUrl: "wss://eleven.example", model: "eleven_flash_v2_5", voiceId: undefined },
    cartesia: {
      baseUrl: "wss://api.cartesia.ai",
      model: "sonic-2",
      version: "2024-11-13",
      voiceId: undefined,
    },
  });
});

describe("the test client's environment (voxgate test)", () => {
  it("reads the server's URL and the API key, blank as absent", () => {
    expect(
      testClientEnv({ VOXGATE_URL: " https://voxgate.example.com ", VOXGATE_API_KEY: "vg_key" }),
    ).toEqual({
      url: "https://voxgate.example.com",
      apiKey: "vg_key",
    });
    expect(testClientEnv({ VOXGATE_URL: "", VOXGATE_API_KEY: "  " })).toEqual({ url: null, apiKey: null });
  });
});

it("reads when the embedded database's process is replaced, and its compiler", () => {
  expect(loadConfig({}).pglite).toEqual({ recycleMb: 224, recycleIdleMs: 20_000, optimizingCompiler: false });
  expect(
    loadConfig({
      VOXGATE_PGLITE_RECYCLE_MB: "0",
      VOXGATE_PGLITE_RECYCLE_IDLE_SECONDS: "90",
      VOXGATE_PGLITE_OPTIMIZING_COMPILER: "true",
    }).pglite,
  ).toEqual({ recycleMb: 0, recycleIdleMs: 90_000, optimizingCompiler: true });
  for (const [name, value] of [
    ["VOXGATE_PGLITE_RECYCLE_MB", "-1"],
    ["VOXGATE_PGLITE_RECYCLE_MB", "lots"],
    ["VOXGATE_PGLITE_RECYCLE_IDLE_SECONDS", "0"],
    ["VOXGATE_PGLITE_OPTIMIZING_COMPILER", "yes"],
  ] as const) {
    const problems = problemsOf({ [name]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^${name}: `));
  }
});

it("reads the visitor country header only when one is named", () => {
  expect(loadConfig({}).visitorCountryHeader).toBeNull();
  expect(loadConfig({ VOXGATE_VISITOR_COUNTRY_HEADER: "CF-IPCountry" }).visitorCountryHeader).toBe(
    "cf-ipcountry",
  );
  expect(problemsOf({ VOXGATE_VISITOR_COUNTRY_HEADER: "bad header" })[0]).toMatch(
    /^VOXGATE_VISITOR_COUNTRY_HEADER: must be an HTTP header name/,
  );
});

it("sends email only with an SMTP URL and a From address, and never shows the URL", () => {
  expect(loadConfig({}).mail).toBeNull();
  expect(loadConfig({ VOXGATE_MAIL_FROM: "voxgate@example.com" }).mail).toBeNull();
  expect(
    loadConfig({
      VOXGATE_SMTP_URL: "smtps://user:secret@mail.example.com:465",
      VOXGATE_MAIL_FROM: "Voxgate <voxgate@example.com>",
    }).mail,
  ).toEqual({
    smtpUrl: "smtps://user:secret@mail.example.com:465",
    from: "Voxgate <voxgate@example.com>",
    timeoutMs: 20_000,
    perAccountPerHour: 30,
  });
  expect(
    loadConfig({
      VOXGATE_SMTP_URL: "smtp://mail.example.com:587",
      VOXGATE_MAIL_FROM: "voxgate@example.com",
      VOXGATE_SMTP_TIMEOUT_SECONDS: "5",
      VOXGATE_MAIL_RATE_LIMIT_PER_HOUR: "3",
    }).mail,
  ).toMatchObject({ timeoutMs: 5000, perAccountPerHour: 3 });
  expect(problemsOf({ VOXGATE_SMTP_URL: "smtp://mail.example.com" })).toEqual([
    expect.stringMatching(/^VOXGATE_MAIL_FROM: is required when VOXGATE_SMTP_URL is set/),
  ]);
  const wrong = problemsOf({
    VOXGATE_SMTP_URL: "https://user:hunter2@mail.example.com",
    VOXGATE_MAIL_FROM: "Voxgate <voxgate@example.com>\r\nBcc: victim@example.com",
    VOXGATE_SMTP_TIMEOUT_SECONDS: "0",
  });
  expect(wrong).toHaveLength(3);
  expect(wrong[0]).toMatch(/^VOXGATE_SMTP_URL: must be an smtp:\/\/ or smtps:\/\/ URL/);
  expect(wrong.join("\n")).not.toContain("hunter2");
  expect(wrong[1]).toMatch(/^VOXGATE_MAIL_FROM: must be an address or Name <address> on one line/);
  expect(wrong[2]).toMatch(/^VOXGATE_SMTP_TIMEOUT_SECONDS: /);
});

it("reads the relay thread's slice: 0 for the kernel's default, else within what Linux clamps it to", () => {
  expect(loadConfig({}).voice.relayThreadSliceUs).toBe(100);
  expect(loadConfig({ VOXGATE_RELAY_THREAD_SLICE_US: "0" }).voice.relayThreadSliceUs).toBe(0);
  expect(loadConfig({ VOXGATE_RELAY_THREAD_SLICE_US: "3000" }).voice.relayThreadSliceUs).toBe(3000);
  for (const value of ["50", "-1", "100001", "1.5", "short"]) {
    const problems = problemsOf({ VOXGATE_RELAY_THREAD_SLICE_US: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^VOXGATE_RELAY_THREAD_SLICE_US: /);
  }
});

it("runs Silero's worker in the background of the relay only when told to", () => {
  expect(loadConfig({}).voice.sileroWorkerBackground).toBe(false);
  expect(loadConfig({ VOXGATE_SILERO_WORKER_BACKGROUND: "true" }).voice.sileroWorkerBackground).toBe(true);
  expect(problemsOf({ VOXGATE_SILERO_WORKER_BACKGROUND: "yes" })).toEqual([
    'VOXGATE_SILERO_WORKER_BACKGROUND: must be true or false (got "yes")',
  ]);
});

it("holds a place of an expensive read in Redis for 30 seconds unless told otherwise", () => {
  expect(loadConfig({}).readLeaseSeconds).toBe(30);
  expect(loadConfig({ VOXGATE_READ_LEASE_SECONDS: "1" }).readLeaseSeconds).toBe(1);
  for (const value of ["0", "601", "1.5", "soon"]) {
    expect(problemsOf({ VOXGATE_READ_LEASE_SECONDS: value })[0]).toMatch(/^VOXGATE_READ_LEASE_SECONDS: /);
  }
});

it("points speech at its own endpoints and keys, else at OPENAI_BASE_URL and OPENAI_API_KEY, else at OpenAI", () => {
  expect(loadConfig({}).voice).toMatchObject({
    stt: { baseUrl: "https://api.openai.com/v1", apiKey: undefined },
    tts: { baseUrl: "https://api.openai.com/v1", apiKey: undefined },
    realtime: { baseUrl: "wss://api.openai.com/v1", apiKey: undefined, model: "gpt-realtime", dialect: "ga" },
  });
  expect(
    loadConfig({ OPENAI_BASE_URL: "http://llm.internal/v1/", OPENAI_API_KEY: "sk-main" }).voice,
  ).toMatchObject({
    stt: { baseUrl: "http://llm.internal/v1", apiKey: "sk-main" },
    tts: { baseUrl: "http://llm.internal/v1", apiKey: "sk-main" },
    realtime: { baseUrl: "ws://llm.internal/v1", apiKey: "sk-main" },
  });
  expect(
    loadConfig({
      OPENAI_BASE_URL: "http://llm.internal/v1",
      OPENAI_API_KEY: "sk-main",
      OPENAI_STT_BASE_URL: "http://whisper.internal/v1/",
      OPENAI_STT_API_KEY: "sk-stt",
      OPENAI_TTS_BASE_URL: "https://tts.internal/v1",
      OPENAI_REALTIME_BASE_URL: "wss://realtime.internal/v1/",
      OPENAI_REALTIME_API_KEY: "sk-rt",
    }).voice,
  ).toMatchObject({
    stt: { baseUrl: "http://whisper.internal/v1", apiKey: "sk-stt" },
    tts: { baseUrl: "https://tts.internal/v1", apiKey: "sk-main" },
    realtime: { baseUrl: "wss://realtime.internal/v1", apiKey: "sk-rt" },
  });
});
