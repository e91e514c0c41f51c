import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "./fixtures/assistants.ts";
import { echoResponder, type FakeOpenAI, startFakeOpenAI } from "./support/fake-openai.ts";
import { getFreePort } from "./support/services.ts";
import { startTestApp, type TestApp } from "./support/test-app.ts";

const TOKEN = "metrics-token-0123456789";

/** The sum of a metric's samples carrying `labels`, from the exposition text; 0 when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  let sum = 0;
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (wanted.every((label) => line.includes(label))) sum += Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return sum;
}

describe("Prometheus metrics on their own port, behind a token", () => {
  let t: TestApp;
  let model: FakeOpenAI;
  let metricsUrl: string;

  beforeAll(async () => {
    model = await startFakeOpenAI();
    model.respondWith(echoResponder);
    const port = await getFreePort();
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
    t = await startTestApp({
      model,
      env: { VOXGATE_METRICS_TOKEN: TOKEN, VOXGATE_METRICS_PORT: String(port) },
    });
  });

  afterAll(async () => {
    await t?.close();
    await model?.close();
  });

  const scrape = async () => {
    const response = await fetch(metricsUrl, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/plain");
    return response.text();
  };

  it("refuses a scrape without the token, and is not on the public port", async () => {
    expect((await fetch(metricsUrl)).status).toBe(401);
    expect((await fetch(metricsUrl, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    expect((await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(
      404,
    );
  });

  it("counts requests, operations, replies, refused reservations and database states", async () => {
    const before = await scrape();
    const owner = await t.createAccount({ balance: "1" });
    const broke = await t.createAccount({ balance: "0" });
    const assistant = await createAssistant(t, owner);
    const poor = await createAssistant(t, broke);
    await t.rest("GET", "/api/user/api-keys", { token: owner.apiKey });
    await t.gql("query Me { viewer { email } }", {}, { token: owner.apiKey });
    await t.gql("query Me { viewer { email } }", {}, { token: "vgk_wrong" });
    const reply = await t.rest("POST", "/api/ai/generate-reply", {
      token: owner.apiKey,
      body: { assistant_id: assistant.id, customer_identifier: "c1", message: "hi" },
    });
    expect(reply.status).toBe(200);
    const refused = await t.rest("POST", "/api/ai/generate-reply", {
      token: broke.apiKey,
      body: { assistant_id: poor.id, customer_identifier: "c1", message: "hi" },
    });
    expect(refused.status).toBe(402);
    const after = await scrape();

    const delta = (name: string, labels?: Record<string, string>) =>
      sample(after, name, labels) - sample(before, name, labels);
    expect(delta("voxgate_http_requests_total", { area: "rest", status: "200" })).toBeGreaterThanOrEqual(2);
    expect(delta("voxgate_http_requests_total", { area: "rest", status: "402" })).toBe(1);
    expect(delta("voxgate_graphql_operations_total", { operation: "Me", status: "ok" })).toBe(1);
    expect(delta("voxgate_graphql_operations_total", { operation: "RestApiKeys", status: "ok" })).toBe(1);
    expect(
      delta("voxgate_graphql_operation_duration_seconds_count", { operation: "Me" }),
    ).toBeGreaterThanOrEqual(1);
    expect(delta("voxgate_reply_duration_seconds_count")).toBe(1);
    expect(delta("voxgate_model_request_duration_seconds_count", { status: "ok" })).toBeGreaterThanOrEqual(1);
    expect(delta("voxgate_balance_reservations_refused_total", { kind: "reply_debit" })).toBe(1);
    expect(after).toContain("voxgate_jobs_queued");
    expect(after).toContain("voxgate_websockets_active");
    expect(after).toContain("voxgate_graphql_subscriptions_active");
  });
});
