import { createClient } from "graphql-ws";
import WebSocket from "ws";

export interface Received<Data> {
  /** Resolves with the next result, or rejects after `timeoutMs`. */
  next(
    timeoutMs?: number,
  ): Promise<{ data?: Data; errors?: { message: string; extensions?: Record<string, unknown> }[] }>;
  close(): Promise<void>;
}

type Result<Data> = Awaited<ReturnType<Received<Data>["next"]>>;

function queue<Data>() {
  const items: Result<Data>[] = [];
  const waiters: ((item: Result<Data>) => void)[] = [];
  return {
    push(item: Result<Data>) {
      const waiter = waiters.shift();
      if (waiter) waiter(item);
      else items.push(item);
    },
    next(timeoutMs = 5000): Promise<Result<Data>> {
      const ready = items.shift();
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no subscription event within ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiters.push((item) => {
          clearTimeout(timer);
          resolve(item);
        });
      });
    },
  };
}

/**
 * Subscribes over graphql-ws. Resolves once the server acknowledged the connection, so that events
 * published afterwards are not missed. `closed` reports the close code when the server refuses.
 */
export async function subscribeWs<Data>(
  baseUrl: string,
  query: string,
  options: { connectionParams?: Record<string, unknown>; variables?: Record<string, unknown> } = {},
): Promise<Received<Data> & { closed: Promise<number> }> {
  const events = queue<Data>();
  let onClosed: (code: number) => void = () => {};
  const closed = new Promise<number>((resolve) => {
    onClosed = resolve;
  });
  let acknowledged: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    acknowledged = resolve;
  });
  const client = createClient({
    url: `${baseUrl.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: options.connectionParams,
    retryAttempts: 0,
    lazy: false,
    on: {
      connected: () => acknowledged(),
      closed: (event) => {
        onClosed((event as { code: number }).code);
        acknowledged();
      },
    },
  });
  client.subscribe<Data>(
    { query, variables: options.variables ?? {} },
    {
      next: (value) => events.push(value as Result<Data>),
      error: (error) =>
        events.push({
          errors: Array.isArray(error)
            ? error
            : [
                {
                  message:
                    error instanceof Error ? error.message : `closed (${(error as { code?: number }).code})`,
                },
              ],
        }),
      complete: () => {},
    },
  );
  await ready;
  // The subscribe message travels after the ack; give the server a moment to register it.
  await new Promise((resolve) => setTimeout(resolve, 100));
  return { next: events.next, close: async () => client.dispose(), closed };
}

/** Subscribes over GraphQL over SSE (Yoga's distinct-connections mode). */
export async function subscribeSse<Data>(
  baseUrl: string,
  query: string,
  options: { headers?: Record<string, string>; variables?: Record<string, unknown> } = {},
): Promise<Received<Data> & { status: number }> {
  const events = queue<Data>();
  const abort = new AbortController();
  const response = await fetch(`${baseUrl}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", ...options.headers },
    body: JSON.stringify({ query, variables: options.variables ?? {} }),
    signal: abort.signal,
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let boundary = buffer.indexOf("\n\n");
        while (boundary >= 0) {
          const block = buffer.slice(0, boundary);
          buffer = buffer.slice(boundary + 2);
          const data = block
            .split("\n")
            .filter((line) => line.startsWith("data:"))
            .map((line) => line.slice(5).trim())
            .join("\n");
          if (data) events.push(JSON.parse(data) as Result<Data>);
          boundary = buffer.indexOf("\n\n");
        }
      }
    } catch {
      // Aborted by close().
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 100));
  return {
    status: response.status,
    next: events.next,
    close: async () => abort.abort(),
  };
}
