import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningService, startPostgres } from "../../test/support/services.ts";
import {
  startTestApp,
  type TestAccount,
  type TestApp,
  testDatabaseKind,
} from "../../test/support/test-app.ts";

const TASK = "test:outage";

/** Polls `probe` until it holds: outages end on the server's schedule, not the test's. */
async function eventually<T>(probe: () => Promise<T>, holds: (value: T) => boolean): Promise<T> {
  let value = await probe();
  for (let attempt = 0; attempt < 300 && !holds(value); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await probe();
  }
  return value;
}

async function graphql(app: TestApp, token: string) {
  const response = await fetch(`${app.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify({ query: "{ viewer { email } }" }),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get("retry-after"),
    body: (await response.json()) as {
      data?: { viewer: { email: string } | null } | null;
      errors?: { message: string; extensions?: Record<string, unknown> }[];
    },
  };
}

// The embedded store has no server to lose: its "outage" is its process dying, after which the
// server exits for its supervisor to start it again (main.ts, docs/operations.md "Outages").
describe.runIf(testDatabaseKind() === "postgres")(
  "a PostgreSQL outage (immediate stop, then restart)",
  () => {
    let postgres: RunningService;
    let t: TestApp;
    let account: TestAccount;
    /** Each run of the test task, by the job's number. */
    const runs: number[] = [];
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ran = new Map<number, () => void>();
    const hasRun = (n: number) =>
      new Promise<void>((resolve) => {
        if (runs.includes(n)) resolve();
        else ran.set(n, resolve);
      });

    beforeAll(async () => {
      // A server of its own: the others' tests keep theirs. Commits must survive its crash (the suite's
      // servers trade that away for speed).
      postgres = await startPostgres(["synchronous_commit=on"]);
      t = await startTestApp({
        database: { kind: "postgres", url: postgres.url },
        beforeListen: (app) =>
          app.services.jobs.define(TASK, {
            maxAttempts: 5,
            run: async (payload) => {
              const n = Number(payload.n);
              runs.push(n);
              ran.get(n)?.();
              // The first job is still running when the database goes: its outcome cannot be recorded.
              if (n === 1 && runs.filter((run) => run === 1).length === 1) await released;
            },
          }),
      });
      account = await t.createAccount();
    }, 120_000);
    afterAll(async () => {
      await t?.close();
      await postgres?.stop();
    });

    it("answers 503 with Retry-After meanwhile, stays up, and serves and runs jobs again afterwards", async () => {
      await t.app.services.jobs.enqueue(TASK, { n: 1 });
      await hasRun(1);

      await postgres.crash();
      // The job ends while the database is away: recording its outcome fails (before: an unhandled
      // rejection from graphile-worker's batchFailJobs/completeJobs that ended the process).
      release();

      const duringGraphql = await eventually(
        () => graphql(t, account.apiKey),
        (answer) => answer.status !== 200,
      );
      expect(duringGraphql.status).toBe(503);
      expect(Number(duringGraphql.retryAfter)).toBeGreaterThan(0);
      expect(duringGraphql.body.errors?.[0]?.extensions).toEqual({
        code: "SERVICE_UNAVAILABLE",
        retryAfter: Number(duringGraphql.retryAfter),
      });

      const duringRest = await t.rest("GET", "/api/user/api-keys", { token: account.apiKey });
      expect(duringRest.status, JSON.stringify(duringRest.body)).toBe(503);
      expect(Number(duringRest.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(duringRest.body).toMatchObject({ message: expect.stringMatching(/temporarily unavailable/) });

      const ready = await t.rest("GET", "/readyz");
      expect(ready).toMatchObject({ status: 503, body: { checks: { database: "failed" } } });
      expect((await t.rest("GET", "/healthz")).status).toBe(200);

      await postgres.restart();

      const after = await eventually(
        () => graphql(t, account.apiKey),
        (answer) => answer.status === 200,
      );
      expect(after.body.data?.viewer?.email, JSON.stringify(after.body)).toBe(account.email);
      expect(
        (
          await eventually(
            () => t.rest("GET", "/readyz"),
            (answer) => answer.status === 200,
          )
        ).status,
      ).toBe(200);

      // The runner came back: new jobs run, and the one whose outcome was lost runs again.
      await t.app.services.jobs.enqueue(TASK, { n: 2 });
      await hasRun(2);
      await eventually(
        async () => runs.filter((run) => run === 1).length,
        (count) => count >= 2,
      );
      expect(runs.filter((run) => run === 1).length).toBeGreaterThanOrEqual(2);
    }, 120_000);
  },
);
