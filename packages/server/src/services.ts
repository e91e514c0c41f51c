import type { Database } from "./db/client.ts";
import type { Config } from "./env.ts";
import { createJobQueue } from "./jobs/index.ts";
import type { Logger } from "./logger.ts";
import { AccountsService } from "./modules/accounts/accounts.service.ts";
import { ApiKeysService } from "./modules/api-keys/api-keys.service.ts";
import { AuthService } from "./modules/auth/auth.service.ts";
import { CredentialStreams } from "./modules/auth/credential-streams.ts";
import { createConversationServices } from "./modules/conversations/index.ts";
import { KnowledgeService } from "./modules/knowledge/knowledge.service.ts";
import { createTelephonyServices } from "./modules/phone-numbers/telephony-services.ts";
import { safeFetchConnections } from "./net/safe-fetch.ts";
import type { PubSub } from "./pubsub.ts";

/** What every service may use. Services never see GraphQL or HTTP types. */
export interface ServiceDeps {
  config: Config;
  db: Database;
  pubsub: PubSub;
  logger: Logger;
}

export type Services = ReturnType<typeof createServices>;

/**
 * A service with background work (a queue worker, a scheduled sweep) implements these; the app
 * starts them once the server is built and stops them, awaiting in-flight work, on close.
 */
export interface Lifecycle {
  start(): Promise<void> | void;
  stop(): Promise<void> | void;
}

export function hasLifecycle(service: object): service is Lifecycle {
  return (
    typeof (service as Partial<Lifecycle>).start === "function" &&
    typeof (service as Partial<Lifecycle>).stop === "function"
  );
}

export function createServices(deps: ServiceDeps) {
  const jobs = createJobQueue(deps, deps.config.workerConcurrency);
  const knowledge = new KnowledgeService(deps, jobs);
  const conversationServices = createConversationServices(deps, () => knowledge);
  return {
    // First, so that it stops last: after the workers whose outbound requests use its connections.
    outboundConnections: safeFetchConnections,
    auth: new AuthService(deps, { rateLimits: conversationServices.rateLimits }),
    credentialStreams: new CredentialStreams(deps),
    accounts: new AccountsService(deps),
    apiKeys: new ApiKeysService(deps),
    jobs,
    knowledge,
    ...createTelephonyServices(deps),
    ...conversationServices,
  };
}
