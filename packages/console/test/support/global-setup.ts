import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import type { TestProject } from "vitest/node";
import type { App } from "../../../server/src/app.ts";
import { browserTestSetup, startInProcessServer } from "../../../server/test/support/browser-test-servers.ts";
import { startFakeOpenAI } from "../../../server/test/support/fake-openai.ts";
import { startFakeSpeech } from "../../../server/test/support/fake-speech.ts";
import { removeFakeMicrophone } from "../../../widget/test/support/fake-microphone.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The real Voxgate server the console talks to. */
    apiBase: string;
    /** Arranges accounts for a test (see `startControlServer`). */
    controlUrl: string;
  }
}

export interface CreatedAccount {
  email: string;
  password: string;
  accountId: number;
}

/**
 * Starts one real Voxgate server (in-memory PGlite, answering through the real `openai` client from
 * an OpenAI-compatible test server, which also embeds documents) and a control server that creates
 * accounts, the one thing a test needs that no console screen does. The widget's embed build is
 * made first (stamped, so only when its sources changed): the assistant preview loads it.
 */
export default function setup(project: TestProject) {
  return browserTestSetup(async (cleanups) => {
    const llm = await startFakeOpenAI();
    cleanups.push(() => llm.close());
    llm.respondWith((request) => {
      const last = request.messages.findLast((message) => message.role === "user")?.content ?? "";
      return { content: `Echo: ${last}` };
    });
    // The test call hears and speaks through the fake speech server (tone speech).
    const speech = await startFakeSpeech();
    cleanups.push(() => speech.close());
    cleanups.push(async () => removeFakeMicrophone("console"));
    const { app, url } = await startInProcessServer(llm.baseUrl, {
      OPENAI_STT_BASE_URL: speech.baseUrl,
      OPENAI_TTS_BASE_URL: speech.baseUrl,
      VOXGATE_WIDGET_RATE_LIMIT_PER_MINUTE: "100000",
      VOXGATE_CONVERSATION_RATE_LIMIT_PER_MINUTE: "100000",
      // Webhooks go to the control server's /hook on loopback.
      VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1",
    });
    cleanups.push(() => app.close());
    const control = await startControlServer(app);
    cleanups.push(control.close);
    project.provide("apiBase", url);
    project.provide("controlUrl", control.url);
  });
}

async function startControlServer(app: App) {
  // A page that answers 404 until POST /publish, for a document that fails and then succeeds.
  let published = false;
  const server = createServer(async (request, response) => {
    const cors = { "access-control-allow-origin": "*", "access-control-allow-headers": "content-type" };
    if (request.method === "OPTIONS") {
      response.writeHead(204, cors).end();
      return;
    }
    if (request.url === "/site") {
      response
        .writeHead(published ? 200 : 404, { "content-type": "text/html; charset=utf-8" })
        .end(
          published
            ? "<html><body><main><h1>Opening hours</h1><p>The shop opens at nine every morning, Sundays included.</p></main></body></html>"
            : "<p>not found</p>",
        );
      return;
    }
    if (request.method === "POST" && request.url === "/publish") {
      published = true;
      response.writeHead(204, cors).end();
      return;
    }
    // A webhook receiver that accepts every event, for the delivery log.
    if (request.method === "POST" && request.url === "/hook") {
      await readJson(request);
      response.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
      return;
    }
    if (request.method !== "POST" || request.url !== "/accounts") {
      response.writeHead(404, cors).end();
      return;
    }
    try {
      const body = await readJson(request);
      const email = `console-${randomBytes(5).toString("hex")}@example.com`;
      const password = `pw-${randomBytes(8).toString("hex")}`;
      const { account } = await app.services.accounts.create({
        email,
        password,
        balance: "10",
        timezone: "UTC",
      });
      if (body.operator === true) {
        await app.db.prisma.account.update({ where: { id: account.id }, data: { isOperator: true } });
      }
      response
        .writeHead(200, { ...cors, "content-type": "application/json" })
        .end(JSON.stringify({ email, password, accountId: account.id } satisfies CreatedAccount));
    } catch (error) {
      response.writeHead(500, cors).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}
