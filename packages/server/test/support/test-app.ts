import { createHash, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import pg from "pg";
import { inject } from "vitest";
import { type App, buildApp } from "../../src/app.ts";
import type { Clock } from "../../src/clock.ts";
import type { DatabaseTarget } from "../../src/db/client.ts";
import { type EnvInput, loadConfig } from "../../src/env.ts";
import { createLogger, type Logger } from "../../src/logger.ts";
import type { FakeOpenAI } from "./fake-openai.ts";

/** The public base URL tests configure, distinct from the listening address, to check returned links. */
export const PUBLIC_BASE_URL = "https://voxgate.test";

export interface GraphQLResponse<Data = Record<string, unknown>> {
  status: number;
  data?: Data | null;
  errors?: { message: string; path?: string[]; extensions?: Record<string, unknown> }[];
}

export interface RestResponse<Body = unknown> {
  status: number;
  body: Body;
  headers: Headers;
}

export interface TestAccount {
  accountId: number;
  userId: number;
  email: string;
  password: string;
  apiKey: string;
}

export interface TestApp {
  app: App;
  /** Where the server listens, e.g. http://127.0.0.1:41234 */
  url: string;
  gql<Data = Record<string, unknown>>(
    query: string,
    variables?: Record<string, unknown>,
    options?: { token?: string | undefined; headers?: Record<string, string> },
  ): Promise<GraphQLResponse<Data>>;
  rest<Body = unknown>(
    method: string,
    path: string,
    options?: { token?: string | undefined; body?: unknown; headers?: Record<string, string> },
  ): Promise<RestResponse<Body>>;
  /** Creates an account with an owner and an API key, through the same services the CLI uses. */
  createAccount(options?: { balance?: string; timezone?: string }): Promise<TestAccount>;
  close(): Promise<void>;
}

/** What a test needs to talk to a server over HTTP: its address and GraphQL and REST requests. */
export type HttpClient = Pick<TestApp, "url" | "gql" | "rest">;

/** GraphQL and REST requests to the server at `url`, as its clients send them. */
export function httpClient(url: string): HttpClient {
  const auth = (token?: string): Record<string, string> =>
    token ? { authorization: `Bearer ${token}` } : {};
  return {
    url,
    async gql(query, variables, requestOptions = {}) {
      const response = await fetch(`${url}/graphql`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...auth(requestOptions.token),
          ...requestOptions.headers,
        },
        body: JSON.stringify({ query, variables }),
      });
      const body = (await response.json()) as GraphQLResponse;
      return { ...body, status: response.status } as GraphQLResponse<never>;
    },
    async rest(method, path, requestOptions = {}) {
      const hasBody = requestOptions.body !== undefined;
      const response = await fetch(`${url}${path}`, {
        method,
        headers: {
          ...(hasBody ? { "content-type": "application/json" } : {}),
          ...auth(requestOptions.token),
          ...requestOptions.headers,
        },
        ...(hasBody ? { body: JSON.stringify(requestOptions.body) } : {}),
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Not JSON: the raw text is what the test sees.
      }
      return { status: response.status, body: body as never, headers: response.headers };
    },
  };
}

/** Which store tests run on: the `postgres` project sets a real PostgreSQL (and Redis). */
export function testDatabaseKind(): "pglite" | "postgres" {
  return inject("postgresAdminUrl") ? "postgres" : "pglite";
}

/** The suite's migrated PGlite data directory: opening from it skips initdb and every migration. */
export function pgliteTemplate(): Blob {
  return new Blob([readFileSync(inject("pgliteTemplatePath"))]);
}

/**
 * A fresh, migrated, empty database for one test app; with `unmigrated`, without even the migrations
 * (PostgreSQL only: an in-memory PGlite without `loadDataDir` is that already).
 */
export async function freshDatabase(
  options: { unmigrated?: boolean } = {},
): Promise<{ target: DatabaseTarget; drop(): Promise<void> }> {
  const adminUrl = inject("postgresAdminUrl");
  if (!adminUrl) {
    return {
      target: { kind: "pglite", dataDir: undefined, loadDataDir: pgliteTemplate() },
      drop: async () => {},
    };
  }
  const name = `vg_${randomBytes(6).toString("hex")}`;
  const template = options.unmigrated ? null : inject("postgresTemplate");
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    target: { kind: "postgres", url: url.toString() },
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

/**
 * A Redis key prefix of its own: in the postgres project every app shares one Redis, and rate-limit
 * counters of one test must not spend another's budget. Apps meant to share limits pass one prefix.
 */
export function ownRateLimitKeys(): { VOXGATE_REDIS_KEY_PREFIX: string } {
  return { VOXGATE_REDIS_KEY_PREFIX: `test-${randomBytes(6).toString("hex")}` };
}

/**
 * The Redis prefix of the deployment a test app belongs to: apps over one PostgreSQL database are
 * instances of one deployment (they share events and limits, as in production); apps over different
 * databases are different deployments, whose ids repeat (each database's first call is call 1), so
 * that test files running side by side on one Redis never hear each other's events.
 */
function deploymentKeys(database: DatabaseTarget): { VOXGATE_REDIS_KEY_PREFIX: string } {
  if (database.kind !== "postgres") return ownRateLimitKeys();
  return {
    VOXGATE_REDIS_KEY_PREFIX: `test-${createHash("sha256").update(database.url).digest("hex").slice(0, 12)}`,
  };
}

/** Configuration for a test app; the postgres project also routes events through Redis. */
export function testConfig(overrides: EnvInput = {}) {
  const redisUrl = inject("redisUrl");
  return loadConfig({
    NODE_ENV: "test",
    PORT: "0",
    LOG_LEVEL: "silent",
    VOXGATE_SEED_DEMO: "false",
    PUBLIC_BASE_URL,
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
    ...overrides,
  });
}

/**
 * Starts the whole server on a free loopback port over a fresh database. Tests talk to it over
 * real HTTP (and WebSocket), exactly as clients do.
 */
export async function startTestApp(
  options: {
    env?: EnvInput;
    /** Answers through the real `openai` client against this stand-in. */
    model?: FakeOpenAI;
    database?: DatabaseTarget;
    logLevel?: "debug" | "info" | "warn" | "error" | "silent";
    /** Overrides `logLevel`: e.g. a logger that captures its lines. */
    logger?: Logger;
    /** A clock the test moves forward (see `ManualClock`). */
    clock?: Clock;
    /** Runs before the background workers start: listeners that must not miss their first work. */
    beforeListen?: (app: App) => void;
  } = {},
): Promise<TestApp> {
  const fresh = options.database ? null : await freshDatabase();
  const database = options.database ?? fresh!.target;
  const config = testConfig({
    ...deploymentKeys(database),
    ...(options.model ? { OPENAI_BASE_URL: options.model.baseUrl, OPENAI_API_KEY: "sk-test" } : {}),
    ...options.env,
  });
  const app = await buildApp(config, {
    database,
    logger: options.logger ?? createLogger(options.logLevel ?? config.logLevel),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  options.beforeListen?.(app);
  const url = await app.listen(0, "127.0.0.1");

  const testApp: TestApp = {
    app,
    ...httpClient(url),
    async createAccount(accountOptions = {}) {
      const email = `user-${randomBytes(5).toString("hex")}@example.com`;
      const password = `pw-${randomBytes(8).toString("hex")}`;
      const { account, user } = await app.services.accounts.create({
        email,
        password,
        balance: accountOptions.balance ?? "10",
        timezone: accountOptions.timezone ?? "UTC",
      });
      const { token } = await app.services.apiKeys.create(
        { accountId: account.id, userId: user.id },
        { name: "test" },
      );
      return { accountId: account.id, userId: user.id, email, password, apiKey: token };
    },
    async close() {
      await app.close();
      await fresh?.drop();
    },
  };
  return testApp;
}

/** A clock that stands still until the test moves it. */
export class ManualClock implements Clock {
  private at: number;
  constructor(start: Date | string) {
    this.at = new Date(start).getTime();
  }
  now() {
    return new Date(this.at);
  }
  advanceMinutes(minutes: number) {
    this.at += minutes * 60_000;
  }
  set(at: Date | string) {
    this.at = new Date(at).getTime();
  }
}
