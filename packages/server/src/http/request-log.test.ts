import { connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startTestApp, type TestApp } from "../../test/support/test-app.ts";
import { createLogger } from "../logger.ts";

/** A JSON logger whose lines the test reads, and awaits. */
function capturingLogger(level: "debug" | "info" = "info") {
  const lines: string[] = [];
  const waiters: { match: (entry: Record<string, unknown>) => boolean; resolve: () => void }[] = [];
  const logger = createLogger(level, {
    format: "json",
    destination: {
      write: (line) => {
        lines.push(line);
        const entry = JSON.parse(line) as Record<string, unknown>;
        for (const waiter of waiters.filter((candidate) => candidate.match(entry))) waiter.resolve();
      },
    },
  });
  return {
    logger,
    text: () => lines.join(""),
    entries: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
    /** Resolves once a line matching `match` is written. */
    lineWhere: (match: (entry: Record<string, unknown>) => boolean) =>
      new Promise<void>((resolve) => waiters.push({ match, resolve })),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe("request ids and access logs", () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("returns the caller's X-Request-Id, or a new one when it is absent or not a sane token", async () => {
    t = await startTestApp();
    const given = await fetch(`${t.url}/healthz`, { headers: { "x-request-id": "edge-7f3a.1" } });
    expect(given.headers.get("x-request-id")).toBe("edge-7f3a.1");

    const generated = await fetch(`${t.url}/healthz`);
    expect(generated.headers.get("x-request-id")).toMatch(UUID);

    const forged = await fetch(`${t.url}/healthz`, { headers: { "x-request-id": `x"}, {"level":"error` } });
    expect(forged.headers.get("x-request-id")).toMatch(UUID);
    const tooLong = await fetch(`${t.url}/healthz`, { headers: { "x-request-id": "a".repeat(129) } });
    expect(tooLong.headers.get("x-request-id")).toMatch(UUID);

    const graphql = await t.gql("{ __typename }", {}, { headers: { "x-request-id": "gql-1" } });
    expect(graphql.status).toBe(200);
    const rest = await t.rest("GET", "/api/user/api-keys", { headers: { "x-request-id": "rest-1" } });
    expect(rest.headers.get("x-request-id")).toBe("rest-1");
  });

  it("logs one access line per request with its id, and the id on the lines of the work it caused", async () => {
    const log = capturingLogger();
    t = await startTestApp({ logger: log.logger });
    const account = await t.createAccount();

    await t.rest("POST", "/api/user/api-keys", {
      token: account.apiKey,
      body: { name: "ci" },
      headers: { "x-request-id": "rest-create-1" },
    });
    await t.gql(
      'mutation { createApiKey(input: { name: "deploy" }) { token } }',
      {},
      { token: account.apiKey, headers: { "x-request-id": "gql-create-1" } },
    );
    await fetch(`${t.url}/no/such/path?token=abc`, { headers: { "x-request-id": "missing-1" } });

    const access = log.entries().filter((entry) => entry.msg === "request");
    for (const id of ["rest-create-1", "gql-create-1", "missing-1"]) {
      expect(access.filter((entry) => entry.requestId === id)).toHaveLength(1);
    }
    expect(access.find((entry) => entry.requestId === "rest-create-1")).toMatchObject({
      level: "info",
      method: "POST",
      path: "/api/user/api-keys",
      status: 201,
      clientAddress: expect.stringMatching(/127\.0\.0\.1/),
      durationMs: expect.any(Number),
      // The stages its work timed (`timed`): here, checking the API key.
      stages: { auth: expect.any(Number) },
    });
    const missing = access.find((entry) => entry.requestId === "missing-1");
    expect(missing).toMatchObject({ path: "/no/such/path", status: 404 });
    expect(missing).not.toHaveProperty("stages");

    // The account's own key was created outside any request, by the test.
    const created = log.entries().filter((entry) => entry.msg === "api key created");
    expect(created.map((entry) => entry.requestId ?? "none").sort()).toEqual([
      "gql-create-1",
      "none",
      "rest-create-1",
    ]);
  });

  it("gives a WebSocket upgrade its id and access line too", async () => {
    const log = capturingLogger();
    t = await startTestApp({ logger: log.logger });
    const socket = new WebSocket(`${t.url.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws", {
      headers: { "x-request-id": "ws-upgrade-1" },
    });
    const upgraded = await new Promise<string | undefined>((resolve, reject) => {
      socket.on("upgrade", (response) => resolve(response.headers["x-request-id"] as string | undefined));
      socket.on("error", reject);
    });
    socket.close();
    expect(upgraded).toBe("ws-upgrade-1");
    expect(log.entries().filter((entry) => entry.requestId === "ws-upgrade-1")).toEqual([
      expect.objectContaining({ msg: "request", method: "GET", path: "/graphql", status: 101 }),
    ]);
  });

  it("logs a body the client aborted at debug, and counts it as 499, not as a server error", async () => {
    const log = capturingLogger("debug");
    const metricsToken = "metrics-token-0123456789";
    t = await startTestApp({ logger: log.logger, env: { VOXGATE_METRICS_TOKEN: metricsToken } });
    const account = await t.createAccount();
    const baseUrl = t.url;
    const { port } = new URL(baseUrl);
    // Read from the app's own endpoint: the module's counters are shared by the other files of this
    // worker (isolate: false), and the endpoint is what an operator's alert reads.
    const counted = async () => {
      const response = await fetch(`${baseUrl}/metrics`, {
        headers: { authorization: `Bearer ${metricsToken}` },
      });
      const text = await response.text();
      const byStatus = new Map<number, number>();
      for (const line of text.split("\n")) {
        const status = /^voxgate_http_requests_total\{.*status="(\d+)".*\} (\S+)$/.exec(line);
        if (status)
          byStatus.set(Number(status[1]), (byStatus.get(Number(status[1])) ?? 0) + Number(status[2]));
      }
      return byStatus;
    };
    const before = await counted();
    const cases = [
      ["/graphql", "application/json"],
      ["/graphql", "multipart/form-data; boundary=x"],
      ["/api/user/api-keys", "application/json"],
      ["/api/user/knowledgebases/1/documents", "multipart/form-data; boundary=x"],
    ];
    for (const [index, [path, type]] of cases.entries()) {
      const requestId = `aborted-${index}`;
      const logged = log.lineWhere((entry) => entry.msg === "request" && entry.requestId === requestId);
      const socket = connect(Number(port), "127.0.0.1");
      socket.write(
        `POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: ${type}\r\ncontent-length: 1000\r\n` +
          `authorization: Bearer ${account.apiKey}\r\nx-request-id: ${requestId}\r\n\r\n{"query":"`,
      );
      // Once the server is reading the body (it authenticated the caller first), the client hangs up.
      socket.destroySoon();
      await logged;
      const lines = log.entries().filter((entry) => entry.requestId === requestId);
      expect(
        lines.filter((entry) => entry.level === "error" || entry.level === "warn"),
        path,
      ).toEqual([]);
      expect(
        lines.find((entry) => entry.msg === "request"),
        path,
      ).toMatchObject({ status: 499 });
      expect(
        lines.some((entry) => entry.msg === "request aborted by the client" && entry.level === "debug"),
      ).toBe(true);
    }
    const after = await counted();
    const total = (values: typeof before, status: number) => values.get(status) ?? 0;
    expect(total(after, 500)).toBe(total(before, 500));
    expect(total(after, 499) - total(before, 499)).toBe(cases.length);
  });

  it("never writes a credential to the log, even at debug level", async () => {
    const log = capturingLogger("debug");
    t = await startTestApp({ logger: log.logger });
    const account = await t.createAccount();

    const login = await t.rest<{ token: string }>("POST", "/api/login", {
      body: { email: account.email, password: account.password },
    });
    expect(login.status).toBe(200);
    await t.rest("POST", "/api/login", { body: { email: account.email, password: `${account.password}x` } });
    await t.rest("GET", `/api/user/api-keys?token=${account.apiKey}`, { token: login.body.token });
    await t.gql("{ viewer { email } }", {}, { token: account.apiKey });
    await t.rest("GET", "/api/user/api-keys", { token: "vg_not-a-real-key" });

    const text = log.text();
    expect(text).toContain('"msg":"session opened"');
    for (const secret of [account.apiKey, account.password, login.body.token, "vg_not-a-real-key"]) {
      expect(text).not.toContain(secret);
    }
  });

  it("redacts credential fields wherever a log line carries them", () => {
    const log = capturingLogger();
    log.logger.warn("upstream refused", {
      authorization: "Bearer k-1",
      request: { headers: { authorization: "Bearer k-2", cookie: "sid=k-3" } },
      input: { email: "a@example.com", password: "k-4" },
      apiKey: "k-5",
      token: "k-6",
    });
    const [entry] = log.entries();
    expect(log.text()).not.toMatch(/k-\d/);
    expect(entry).toMatchObject({
      authorization: "[redacted]",
      request: { headers: { authorization: "[redacted]", cookie: "[redacted]" } },
      input: { email: "a@example.com", password: "[redacted]" },
    });
  });
});
