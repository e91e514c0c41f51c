import { afterEach, describe, expect, it } from "vitest";
import { startRedis } from "../../test/support/services.ts";
import {
  freshDatabase,
  startTestApp,
  type TestApp,
  testConfig,
  testDatabaseKind,
} from "../../test/support/test-app.ts";
import { buildApp } from "../app.ts";
import { createLogger } from "../logger.ts";

describe("health", () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("answers /healthz (liveness) and /readyz (readiness) once the app has started", async () => {
    t = await startTestApp();
    const live = await t.rest("GET", "/healthz");
    expect(live).toMatchObject({ status: 200, body: { status: "ok", database: testDatabaseKind() } });

    const ready = await t.rest("GET", "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.headers.get("cache-control")).toBe("no-store");
    // The postgres project routes events through Redis, so readiness checks it too.
    const redis = testDatabaseKind() === "postgres" ? { redis: "ok" } : {};
    expect(ready.body).toEqual({
      status: "ready",
      checks: { server: "ok", database: "ok", ...redis },
      // Without a model it serves with the fallback, and says so (self-hosted-models.test.ts).
      model: expect.objectContaining({ configured: false }),
    });
  });

  // A Redis of its own, so that stopping it leaves the other tests' Redis alone.
  it.runIf(testDatabaseKind() === "postgres")(
    "stays ready while Redis is down, saying what runs locally, and is plainly ready once it is back",
    async () => {
      const redis = await startRedis();
      const dependencyUp = async () => {
        const text = await (
          await fetch(`${t!.url}/metrics`, { headers: { authorization: "Bearer metrics-token-for-tests" } })
        ).text();
        return /voxgate_dependency_up\{dependency="redis"\} (\d)/.exec(text)?.[1];
      };
      const readyz = async () => {
        const response = await t!.rest("GET", "/readyz");
        return { status: response.status, body: response.body as { status: string } };
      };
      const until = async (holds: (answer: Awaited<ReturnType<typeof readyz>>) => boolean) => {
        // The clients notice a closed or returned server on their own schedule: poll, boundedly.
        let answer = await readyz();
        for (let attempt = 0; attempt < 300 && !holds(answer); attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          answer = await readyz();
        }
        return answer;
      };
      try {
        t = await startTestApp({
          env: { REDIS_URL: redis.url, VOXGATE_METRICS_TOKEN: "metrics-token-for-tests" },
        });
        expect(await readyz()).toMatchObject({ status: 200, body: { status: "ready" } });
        expect(await dependencyUp()).toBe("1");
        await redis.crash();
        const degraded = await until((answer) => answer.body.status !== "ready");
        expect(degraded).toEqual({
          status: 200,
          body: {
            status: "degraded",
            checks: { server: "ok", database: "ok", redis: "down" },
            degraded: {
              rateLimits: "local: counted per instance",
              events: "local: subscribers hear only this instance's events",
              caches: "bypassed: credentials and assistant settings are read from the database",
              readLimits: "local: overviews and call exports at once per account are counted per instance",
            },
            // The test app runs without a chat model (health: model.configured false).
            model: expect.objectContaining({ configured: false }),
          },
        });
        expect(await dependencyUp()).toBe("0");
        expect((await t.rest("GET", "/healthz")).status).toBe(200);
        await redis.restart();
        expect(await until((answer) => answer.body.status === "ready")).toMatchObject({
          status: 200,
          body: { status: "ready", checks: { redis: "ok" } },
        });
        expect(await dependencyUp()).toBe("1");
      } finally {
        await redis.stop();
      }
    },
  );

  it("is not ready before it starts listening, nor once it begins to close", async () => {
    const database = await freshDatabase();
    const app = await buildApp(testConfig(), { database: database.target, logger: createLogger("silent") });
    const readyz = async () => {
      const response = await app.handle(new Request("http://voxgate.test/readyz"));
      return { status: response.status, body: await response.json() };
    };
    try {
      expect(await readyz()).toMatchObject({
        status: 503,
        body: { status: "unavailable", checks: { server: "starting", database: "ok" } },
      });
      await app.listen(0, "127.0.0.1");
      expect((await readyz()).status).toBe(200);
    } finally {
      const closing = app.close();
      expect(await readyz()).toMatchObject({ status: 503, body: { checks: { server: "stopping" } } });
      await closing;
      await database.drop();
    }
  });
});
