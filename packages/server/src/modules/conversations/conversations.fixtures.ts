import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { FakeOpenAI } from "../../../test/support/fake-openai.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import type { EnvInput } from "../../env.ts";

/**
 * A Redis key prefix of its own for one test app: in the postgres project every app shares one
 * Redis, and rate-limit counters of one test must not spend another's budget.
 */
export function ownRateLimitKeys(): { VOXGATE_REDIS_KEY_PREFIX: string } {
  return { VOXGATE_REDIS_KEY_PREFIX: `test-${randomBytes(6).toString("hex")}` };
}

/**
 * Starts the app answering through the real `openai` client against `model`, with rate-limit
 * counters of its own; `env` adds or overrides settings.
 */
export function startAppWithModel(model: FakeOpenAI, env: EnvInput = {}): Promise<TestApp> {
  return startTestApp({
    env: { ...ownRateLimitKeys(), OPENAI_BASE_URL: model.baseUrl, OPENAI_API_KEY: "sk-test", ...env },
  });
}

/** An assistant stored directly: the assistants API is another module's concern. */
export function createAssistant(
  t: TestApp,
  owner: TestAccount,
  data: {
    name?: string;
    systemPrompt?: string;
    initialMessage?: string;
    timezone?: string;
    variables?: Record<string, string>;
    tools?: unknown[];
    allowedOrigins?: string[];
    knowledgebaseId?: number | null;
    knowledgebaseMode?: string;
    llmTemperature?: string;
  } = {},
) {
  return t.app.db.prisma.assistant.create({
    data: {
      accountId: owner.accountId,
      userId: owner.userId,
      name: data.name ?? "Helper",
      systemPrompt: data.systemPrompt ?? "You are a helpful assistant.",
      initialMessage: data.initialMessage ?? "Hello! How can I help?",
      timezone: data.timezone ?? "UTC",
      variables: data.variables ?? {},
      tools: (data.tools ?? []) as never,
      allowedOrigins: data.allowedOrigins ?? [],
      knowledgebaseId: data.knowledgebaseId ?? null,
      knowledgebaseMode: data.knowledgebaseMode ?? "hybrid",
      llmTemperature: data.llmTemperature ?? "0.7",
    },
  });
}

export interface RecordedWebhookCall {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: string;
}

/** A local HTTP server standing in for a customer's webhook (reached through the SSRF allow-list). */
export async function startWebhookServer(
  respond: (call: RecordedWebhookCall) => {
    status?: number;
    body: unknown;
    delayMs?: number;
    headers?: Record<string, string>;
  },
): Promise<{ url: string; calls: RecordedWebhookCall[]; close(): Promise<void> }> {
  const calls: RecordedWebhookCall[] = [];
  const server: Server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const call = {
      method: request.method ?? "",
      url: request.url ?? "",
      headers: request.headers,
      body: Buffer.concat(chunks).toString("utf8"),
    };
    calls.push(call);
    const answer = respond(call);
    if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
    if (response.destroyed) return;
    response.writeHead(answer.status ?? 200, { "content-type": "application/json", ...answer.headers });
    response.end(typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
