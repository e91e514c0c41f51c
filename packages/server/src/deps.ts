import type { Database } from "./db/client.ts";
import type { Config } from "./env.ts";
import type { Logger } from "./logger.ts";
import type { EventBusHealth, PubSub } from "./pubsub.ts";

/**
 * What every service may use. Services never see GraphQL or HTTP types. A leaf module: services
 * import it, and only the composition root (`services.ts`) imports the services.
 */
export interface ServiceDeps {
  config: Config;
  db: Database;
  pubsub: PubSub;
  /** Whether other instances' events arrive: caches kept fresh by them are bypassed while they cannot. */
  eventBus: EventBusHealth;
  logger: Logger;
}

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
