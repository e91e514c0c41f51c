import { createPubSub, Repeater } from "graphql-yoga";
import type { Redis } from "ioredis";
import { lazyRequire } from "./lazy-require.ts";
import type { Logger } from "./logger.ts";

/**
 * Every event the server publishes, keyed by topic then id. With REDIS_URL the events travel
 * through Redis, so a subscriber on one instance sees what another instance raised.
 */
export type PubSubEvents = {
  "account:balance": [accountId: number, payload: { accountId: number }];
  "call:status": [
    accountId: number,
    payload: {
      callId: number;
      assistantId: number | null;
      campaignId: number | null;
      status: string;
      /** Null when the call was just created. */
      previousStatus: string | null;
    },
  ];
  /** A call's post-call evaluation was stored, or failed for good. */
  "call:evaluated": [accountId: number, payload: { callId: number; status: "done" | "failed" }];
  /** A turn of a live call was stored (voice engine). */
  "call:turn": [accountId: number, payload: { callId: number; turnId: number }];
  /** Leads of the campaign moved or its status changed: subscribers re-read its counters. */
  "campaign:progress": [campaignId: number, payload: { campaignId: number }];
  "document:status": [
    knowledgebaseId: number,
    payload: {
      documentId: number;
      knowledgebaseId: number;
      status: "processing" | "active" | "failed" | "deleted";
      stage: string | null;
      pagesDone: number;
      pagesTotal: number | null;
      chunkCount: number;
      failureReason: string | null;
      knowledgebaseStatus: "empty" | "processing" | "active" | "failed";
    },
  ];
  "conversation:message": [
    conversationId: string,
    payload: { conversationId: string; messageId: number; role: "user" | "assistant" | "operator" },
  ];
  /**
   * The account's inbox moved: a message stored (messageId) or a take-over/hand-back (messageId null);
   * `kind` names the inbox's own moves (status, assignment, note, a member's read with its userId).
   */
  "conversation:activity": [
    accountId: number,
    payload: {
      conversationId: string;
      messageId: number | null;
      kind?: "status" | "assignment" | "note" | "read";
      noteId?: number;
      userId?: number;
    },
  ];
  /** An API key was deleted or a session logged out: streams opened with it end, on every instance. */
  "credential:revoked": [payload: { kind: "apiKey" | "session" | "account"; id: number }];
  /** An assistant's settings changed or it was deleted: cached reply settings are dropped on every instance. */
  "assistant:changed": [payload: { assistantId: number }];
  /** Pieces of an assistant reply while the model is still writing it. */
  "conversation:reply-delta": [conversationId: string, payload: { conversationId: string; text: string }];
  /** Someone listens to a live call (modules/live-listen): the instance carrying it publishes its audio a while. */
  "call:listen-wanted": [payload: { callId: number }];
  /**
   * 20 ms of a live call's mixed audio (8 kHz mu-law, base64) at `position` samples, or its end; or the
   * call's instance answering a want: every frame from then on is published while the want lasts.
   */
  "call:live-audio": [
    callId: number,
    payload: { position: number; audio: string } | { ended: true } | { tapping: true },
  ];
  /** An agent test run moved: queued, a scenario started or finished, the run finished. */
  "test-run:updated": [runId: number, payload: { runId: number }];
};

export type PubSub = ReturnType<typeof createPubSub<PubSubEvents>>;

/**
 * Whether events from other instances reach this one. Caches that trust those events to learn of
 * changes (revocations, settings) must not be trusted while they cannot arrive.
 */
export interface EventBusHealth {
  /** Always true without Redis (one instance hears its own events); with Redis, both connections are up. */
  readonly up: boolean;
  /** Called with false when the bus goes down and with true once it is back (after resubscribing). */
  onChange(listener: (up: boolean) => void): () => void;
}

const alwaysUp: EventBusHealth = { up: true, onChange: () => () => {} };

export interface PubSubHandle {
  pubsub: PubSub;
  health: EventBusHealth;
  /** Resolves when Redis answers a PING (readiness); absent without Redis. */
  ping?: () => Promise<void>;
  /**
   * Resolves once both Redis connections are up, or after `timeoutMs` (Redis may come later: the
   * clients reconnect by themselves, and readiness reports it). Absent without Redis.
   */
  connected?: (timeoutMs: number) => Promise<boolean>;
  close(): Promise<void>;
}

/** ioredis is loaded only with REDIS_URL: an embedded single instance never needs it. */
const ioredis = lazyRequire<typeof import("ioredis")>("ioredis");

/**
 * `keyPrefix` (VOXGATE_REDIS_KEY_PREFIX) opens every channel name: deployments sharing one Redis
 * hear only their own events (ids repeat across databases: another deployment's call 1 is not ours).
 */
export function createEventBus(
  redisUrl: string | undefined,
  keyPrefix: string,
  logger: Logger,
): PubSubHandle {
  if (!redisUrl) return { pubsub: createPubSub<PubSubEvents>(), health: alwaysUp, close: async () => {} };
  const { Redis } = ioredis();
  // Events raised together (a reply's two messages, its balance change) leave in one write.
  const publishClient = new Redis(redisUrl, {
    maxRetriesPerRequest: 3,
    lazyConnect: false,
    enableAutoPipelining: true,
  });
  const subscribeClient = new Redis(redisUrl, { maxRetriesPerRequest: 3, lazyConnect: false });
  // While Redis is away the clients reconnect on their own; each failed attempt is worth a line.
  for (const client of [publishClient, subscribeClient]) {
    client.on("error", (error: unknown) => logger.warn("redis connection failed", { error }));
  }
  const health = redisHealth(publishClient, subscribeClient, logger);
  const target = redisEventTarget(publishClient, subscribeClient, `${keyPrefix}:events:`, (error) =>
    logger.error("redis event delivery failed", { error }),
  );
  return {
    pubsub: createPubSub<PubSubEvents>({ eventTarget: target }),
    health,
    connected: (timeoutMs) => {
      const up = (client: Redis) =>
        client.status === "ready"
          ? Promise.resolve()
          : new Promise<void>((resolve) => client.once("ready", resolve));
      let timer: NodeJS.Timeout | undefined;
      return Promise.race([
        Promise.all([up(publishClient), up(subscribeClient)]).then(() => true),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), timeoutMs);
        }),
      ]).finally(() => clearTimeout(timer));
    },
    ping: async () => {
      // A client that is reconnecting would queue the PING until Redis is back: not ready now.
      if (publishClient.status !== "ready") throw new Error(`Redis is ${publishClient.status}`);
      await publishClient.ping();
    },
    close: async () => {
      // Events raised just before (a CLI command's) are sent before the connection closes.
      await target.flush(CLOSE_FLUSH_MS);
      await Promise.allSettled([publishClient.quit(), subscribeClient.quit()]);
    },
  };
}

/** How long closing waits for events still on their way to Redis. */
const CLOSE_FLUSH_MS = 5_000;

/**
 * Up once both connections are ready and the subscriber's channels are subscribed again (ioredis
 * resubscribes on reconnect, before the PING it answers here); down as soon as either closes.
 */
function redisHealth(publishClient: Redis, subscribeClient: Redis, logger: Logger): EventBusHealth {
  const listeners = new Set<(up: boolean) => void>();
  let up = false;
  const set = (next: boolean) => {
    if (next === up) return;
    up = next;
    logger[next ? "info" : "warn"](next ? "event bus connected" : "event bus unavailable");
    for (const listener of listeners) listener(next);
  };
  const check = () => {
    if (publishClient.status !== "ready" || subscribeClient.status !== "ready") return set(false);
    // "ready" is emitted before ioredis sends the SUBSCRIBEs again: the PING goes after them.
    setImmediate(() =>
      subscribeClient.ping().then(
        () => set(publishClient.status === "ready" && subscribeClient.status === "ready"),
        () => set(false),
      ),
    );
  };
  for (const client of [publishClient, subscribeClient]) {
    client.on("ready", check);
    client.on("close", () => set(false));
  }
  return {
    get up() {
      return up;
    },
    onChange: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

type Listener = ((event: never) => void) | { handleEvent: (event: never) => void } | null;
type EventTarget = NonNullable<NonNullable<Parameters<typeof createPubSub<PubSubEvents>>[0]>["eventTarget"]>;

/**
 * Events through Redis channels, one channel per topic (under the deployment's prefix). Publishing and (un)subscribing do not wait
 * for Redis; a failure (Redis is down) is reported, never left as an unhandled rejection that
 * would end the process.
 */
function redisEventTarget(
  publishClient: Redis,
  subscribeClient: Redis,
  channelPrefix: string,
  onError: (error: unknown) => void,
): EventTarget & { flush(timeoutMs: number): Promise<void> } {
  /** Publishes Redis has not acknowledged yet. */
  const sending = new Set<Promise<unknown>>();
  const callbacksForTopic = new Map<string, Set<(event: CustomEvent) => void>>();
  subscribeClient.on("message", (channel: string, message: string) => {
    if (!channel.startsWith(channelPrefix)) return;
    const topic = channel.slice(channelPrefix.length);
    const callbacks = callbacksForTopic.get(topic);
    if (!callbacks) return;
    let detail: unknown = null;
    try {
      if (message !== "") detail = JSON.parse(message);
    } catch (error) {
      // Thrown here it would escape ioredis's socket handler and end the process.
      onError(error);
      return;
    }
    const event = new CustomEvent(topic, { detail });
    for (const callback of callbacks) callback(event);
  });
  // Listeners are typed per topic; every event this target delivers is a CustomEvent.
  const callbackOf = (listener: Listener) =>
    (listener && ("handleEvent" in listener ? listener.handleEvent : listener)) as
      | ((event: CustomEvent) => void)
      | null;
  return {
    addEventListener(topic, listener) {
      const callback = callbackOf(listener);
      if (!callback) return;
      let callbacks = callbacksForTopic.get(topic);
      if (!callbacks) {
        callbacks = new Set();
        callbacksForTopic.set(topic, callbacks);
        subscribeClient.subscribe(channelPrefix + topic).catch(onError);
      }
      callbacks.add(callback);
    },
    removeEventListener(topic, listener) {
      const callback = callbackOf(listener);
      const callbacks = callbacksForTopic.get(topic);
      if (!callback || !callbacks) return;
      callbacks.delete(callback);
      if (callbacks.size > 0) return;
      callbacksForTopic.delete(topic);
      subscribeClient.unsubscribe(channelPrefix + topic).catch(onError);
    },
    dispatchEvent(event) {
      const detail = event.detail === undefined ? "" : JSON.stringify(event.detail);
      const sent = publishClient.publish(channelPrefix + event.type, detail).catch(onError);
      sending.add(sent);
      void sent.finally(() => sending.delete(sent));
      return true;
    },
    flush: async (timeoutMs) => {
      if (sending.size === 0) return;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...sending]),
        new Promise((resolve) => {
          timer = setTimeout(resolve, timeoutMs);
        }),
      ]);
      clearTimeout(timer);
    },
  };
}

/**
 * What `current()` reads, then the events of `live`: a client that reads a thing and then subscribes to
 * it would miss a change made between the two. `live` is started before `current()` is read, so a change
 * made meanwhile comes after it (perhaps telling again what `current()` told). With REDIS_URL the
 * instance's Redis subscription is shared and usually open already; a first subscriber of a topic on
 * an instance may still miss an event published while Redis confirms it.
 */
export function startingWith<T>(live: AsyncIterable<T>, current: () => Promise<T>): AsyncIterable<T> {
  return new Repeater<T>(async (push, stop) => {
    const iterator = live[Symbol.asyncIterator]();
    const first = iterator.next();
    void stop.then(() => iterator.return?.());
    await push(await current());
    for (let result = await first; !result.done; result = await iterator.next()) await push(result.value);
    stop();
  });
}
