import { createRedisEventTarget } from "@graphql-yoga/redis-event-target";
import { createPubSub } from "graphql-yoga";
import { Redis } from "ioredis";

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
  "conversation:message": [conversationId: string, payload: { conversationId: string; messageId: number }];
  /** An API key was deleted or a session logged out: streams opened with it end, on every instance. */
  "credential:revoked": [payload: { kind: "apiKey" | "session"; id: number }];
  /** Pieces of an assistant reply while the model is still writing it. */
  "conversation:reply-delta": [conversationId: string, payload: { conversationId: string; text: string }];
};

export type PubSub = ReturnType<typeof createPubSub<PubSubEvents>>;

export interface PubSubHandle {
  pubsub: PubSub;
  /** Resolves when Redis answers a PING (readiness); absent without Redis. */
  ping?: () => Promise<void>;
  close(): Promise<void>;
}

export function createEventBus(redisUrl: string | undefined): PubSubHandle {
  if (!redisUrl) return { pubsub: createPubSub<PubSubEvents>(), close: async () => {} };
  const publishClient = new Redis(redisUrl, { maxRetriesPerRequest: 3, lazyConnect: false });
  const subscribeClient = new Redis(redisUrl, { maxRetriesPerRequest: 3, lazyConnect: false });
  const eventTarget = createRedisEventTarget<CustomEvent>({ publishClient, subscribeClient });
  return {
    pubsub: createPubSub<PubSubEvents>({ eventTarget }),
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
