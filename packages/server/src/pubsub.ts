import { createPubSub } from "graphql-yoga";
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
  /** The account's inbox moved: a message stored (messageId) or a take-over/hand-back (messageId null). */
  "conversation:activity": [accountId: number, payload: { conversationId: string; messageId: number | null }];
  /** An API key was deleted or a session logged out: streams opened with it end, on every instance. */
  "credential:revoked": [payload: { kind: "apiKey" | "session" | "account"; id: number }];
  /** An assistant's settings changed or it was deleted: cached reply settings are dropped on every instance. */
  "assistant:changed": [payload: { assistantId: number }];
  /** Pieces of an assistant reply while the model is still writing it. */
  "conversation:reply-delta": [conversationId: string, payload: { conversationId: string; text: string }];
};

export type PubSub = ReturnType<typeof createPubSub<PubSubEvents>>;

export interface PubSubHandle {
  pubsub: PubSub;
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
  if (!redisUrl) return { pubsub: createPubSub<PubSubEvents>(), close: async () => {} };
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
  return {
    pubsub: createPubSub<PubSubEvents>({
      eventTarget: redisEventTarget(publishClient, subscribeClient, `${keyPrefix}:events:`, (error) =>
        logger.error("redis event delivery failed", { error }),
      ),
    }),
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
      await Promise.allSettled([publishClient.quit(), subscribeClient.quit()]);
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
): EventTarget {
  const callbacksForTopic = new Map<string, Set<(event: CustomEvent) => void>>();
  subscribeClient.on("message", (channel: string, message: string) => {
    if (!channel.startsWith(channelPrefix)) return;
    const topic = channel.slice(channelPrefix.length);
    const callbacks = callbacksForTopic.get(topic);
    if (!callbacks) return;
    const event = new CustomEvent(topic, { detail: message === "" ? null : JSON.parse(message) });
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
      publishClient.publish(channelPrefix + event.type, detail).catch(onError);
      return true;
    },
  };
}
