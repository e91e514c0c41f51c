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
    expect(ready.body).toEqual({ status: "ready", checks: { server: "ok", database: "ok", ...redis } });
  });

  // A Redis of its own, so that stopping it leaves the other tests' Redis alone.
  it.runIf(testDatabaseKind() === "postgres")(
    "is not ready while Redis does not answer, though still alive",
    async () => {
      const redis = await startRedis();
      try {
        t = await startTestApp({ env: { REDIS_URL: redis.url } });
        expect((await t.rest("GET", "/readyz")).status).toBe(200);
        await redis.stop();
        // The client notices the closed connection on its own schedule: poll, boundedly.
        let ready = await t.rest("GET", "/readyz");
        for (let attempt = 0; attempt < 100 && ready.status === 200; attempt++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          ready = await t.rest("GET", "/readyz");
        }
        expect(ready.status).toBe(503);
        expect(ready.body).toEqual({
          status: "unavailable",
          checks: { server: "ok", database: "ok", redis: "failed" },
        });
        expect((await t.rest("GET", "/healthz")).status).toBe(200);
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
