import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the receiver got, as it arrived (the raw body is what signatures cover). */
export interface ReceivedWebhook {
  id: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: { type: string; timestamp: string; data: Record<string, unknown> };
}

export interface ReceiverAnswer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** Decides each answer (default 200 `{"ok":true}`); `attempt` counts requests with the same webhook-id. */
  respondWith(answer: (request: ReceivedWebhook, attempt: number) => ReceiverAnswer): void;
  /** Resolves with the first request (already received or to come) that matches. */
  waitFor(match: (request: ReceivedWebhook) => boolean): Promise<ReceivedWebhook>;
  close(): Promise<void>;
}

/** A local endpoint standing in for a customer's webhook receiver. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const waiters: { match: (request: ReceivedWebhook) => boolean; resolve: (r: ReceivedWebhook) => void }[] =
    [];
  let answer: (request: ReceivedWebhook, attempt: number) => ReceiverAnswer = () => ({
    status: 200,
    body: '{"ok":true}',
  });
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const webhook: ReceivedWebhook = {
      id: String(request.headers["webhook-id"] ?? ""),
      headers: request.headers,
      body,
      json: JSON.parse(body || "{}") as ReceivedWebhook["json"],
    };
    received.push(webhook);
    const attempt = received.filter((other) => other.id === webhook.id).length;
    const { status, body: text = "", headers = {} } = answer(webhook, attempt);
    response.writeHead(status, { "content-type": "application/json", ...headers });
    response.end(text);
    for (const waiter of [...waiters]) {
      if (waiter.match(webhook)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(webhook);
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    respondWith: (next) => {
      answer = next;
    },
    waitFor: (match) => {
      const found = received.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ match, resolve }));
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
