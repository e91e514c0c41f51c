import type { Clock } from "./clock.ts";
import type { RequestMeta } from "./context.ts";
import { type Database, type DatabaseTarget, databaseTarget, openDatabase } from "./db/client.ts";
import { migrate } from "./db/migrate.ts";
import { hasLifecycle } from "./deps.ts";
import type { Config } from "./env.ts";
import { createApiIndex } from "./http/api-index.ts";
import { createCalendarOAuthRoutes } from "./http/calendar-oauth.ts";
import { createCallExportRoutes } from "./http/call-exports.ts";
import { TrustedProxies } from "./http/client-address.ts";
import { createGraphQL } from "./http/graphql.ts";
import { createHealth, dependencyProbe, type HealthDeps, type Phase } from "./http/health.ts";
import { createMetricsEndpoint } from "./http/metrics.ts";
import { createRecordingRoutes } from "./http/recordings.ts";
import { createRestHandler } from "./http/rest.ts";
import { answerRequests, closeServer, createNodeServer, listen } from "./http/server.ts";
import { createStaticFiles, notFound } from "./http/static.ts";
import { createTwilioRoutes } from "./http/twilio.ts";
import { attachWebSocket } from "./http/websocket.ts";
import { createLogger, type Logger } from "./logger.ts";
import { createArchiveRoutes } from "./modules/customer-data/archive-route.ts";
import { modelSetup } from "./modules/providers/model-setup.ts";
import { OperatorChannel } from "./operator-channel.ts";
import { createEventBus, type EventBusHealth, type PubSub } from "./pubsub.ts";
import { type DemoCredentials, demoAssistantUuid, seedCatalog, seedDemo } from "./seed/seed.ts";
import { createServices, type Services } from "./services.ts";

/** How long a start waits for Redis before starting the services that listen to it. */
const REDIS_CONNECT_WAIT_MS = 10_000;

export interface AppOptions {
  logger?: Logger;
  /** Overrides where data lives (tests use an in-memory PGlite or a throw-away database). */
  database?: DatabaseTarget;
  /**
   * The configured database, already being opened: main.ts starts it before loading the app's
   * modules, so that the embedded database boots in its process while this one loads code.
   */
  opening?: Promise<Database>;
  /** Overrides the wall clock services schedule by (tests move it forward instead of waiting). */
  clock?: Clock;
}

export interface App {
  config: Config;
  db: Database;
  services: Services;
  pubsub: PubSub;
  eventBus: EventBusHealth;
  logger: Logger;
  /** Set on the start that created the demo account: its credentials, shown once. */
  demo: DemoCredentials | null;
  /** The demo assistant's UUID while it exists (on every start, not only the first). */
  demoAssistant: string | null;
  /** Answers one HTTP request in process, as the HTTP server does (client address "unknown"). */
  handle(request: Request): Promise<Response>;
  /** Starts listening, then the background workers; port 0 picks a free port. Resolves with the base URL. */
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Builds the whole service without listening: the database (migrated), the services, then the
 * HTTP parts (`http/`): GraphQL over HTTP, SSE and WebSocket, the REST API under /api, health
 * checks and static files.
 */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<App> {
  const logger = options.logger ?? createLogger(config.logLevel, { format: config.logFormat });
  const db = await (options.opening ?? openDatabase(options.database ?? databaseTarget(config)));
  const applied = await migrate(db);
  if (applied.length > 0) logger.info("migrations applied", { migrations: applied });

  const events = createEventBus(config.redisUrl, config.redisKeyPrefix, logger);
  const pubsub = events.pubsub;
  const services = createServices(
    { config, db, pubsub, eventBus: events.health, logger },
    { clock: options.clock },
  );
  await seedCatalog(db.prisma);
  const demo = config.seedDemo ? await seedDemo(db.prisma, services) : null;
  const demoAssistant = await demoAssistantUuid(db.prisma);
  db.onRecycle((outcome) =>
    logger.info("embedded database process replaced", {
      beforeMb: Math.round(outcome.beforeMb),
      afterMb: Math.round(outcome.afterMb),
      pausedMs: Math.round(outcome.pausedMs),
    }),
  );
  // Creating the data directory and migrating leave the embedded database's process at its
  // high-water mark (~700 MB on a first start): a fresh one serves, before any request.
  if (applied.length > 0) await db.releaseMemory();

  let phase: Phase = "starting";
  const graphql = createGraphQL({ services, db, pubsub, logger });
  const rest = createRestHandler(graphql.yoga, { config, logger });
  const apiIndex = createApiIndex(config);
  const healthDeps: HealthDeps = {
    db,
    pingRedis: events.ping,
    eventBusUp: () => events.health.up,
    limitsLocal: () => services.rateLimits.local || services.readGates.local,
    phase: () => phase,
    model: modelSetup(config),
  };
  const metricsEndpoint = createMetricsEndpoint(db, config.metrics.token, dependencyProbe(healthDeps));
  // On the main port only behind a token; a port of its own is for a network the public cannot reach.
  const metricsOnMainPort = config.metrics.token !== undefined && config.metrics.port === undefined;
  const health = createHealth(healthDeps);
  const staticFiles = createStaticFiles(config);
  const twilio = createTwilioRoutes({ config, webhooks: services.twilioWebhooks, logger });
  const recordings = createRecordingRoutes({ auth: services.auth, recordings: services.recordings });
  const callExports = createCallExportRoutes({
    auth: services.auth,
    callQueries: services.callQueries,
    gate: services.callExportGate,
  });
  const customerDataArchives = createArchiveRoutes({
    auth: services.auth,
    customerData: services.customerData,
  });
  const calendarOAuth = createCalendarOAuthRoutes({ config, oauth: services.calendarOAuth, logger });
  const route = async (request: Request, meta: RequestMeta): Promise<Response> => {
    const url = new URL(request.url);
    if (url.pathname === "/graphql") return graphql.handle(request, meta);
    if (url.pathname === "/metrics" && metricsOnMainPort) return metricsEndpoint(request);
    return (
      apiIndex(request, url) ??
      (await rest(request, meta)) ??
      (await twilio(request, url)) ??
      (await recordings(request, url)) ??
      (await callExports(request, url)) ??
      (await customerDataArchives(request, url)) ??
      (await calendarOAuth(request, url)) ??
      (await health(url)) ??
      (await staticFiles(request, url)) ??
      notFound()
    );
  };
  const answer = answerRequests(route, logger);

  const trustedProxies = new TrustedProxies(config.trustedProxies);
  const server = createNodeServer(answer, trustedProxies, config.connections);
  const webSocket = attachWebSocket(server, graphql.yoga, {
    services,
    trustedProxies,
    logger,
    limits: config.connections,
  });
  // The embedded store admits one process: the CLI reaches it through this server meanwhile.
  const operatorChannel =
    db.kind === "pglite" && db.dataDir ? new OperatorChannel(db.dataDir, services, logger) : null;
  const metricsServer =
    config.metrics.port === undefined
      ? null
      : createNodeServer(
          async (request) =>
            new URL(request.url).pathname === "/metrics" ? metricsEndpoint(request) : notFound(),
          trustedProxies,
          config.connections,
        );
  const backgroundServices = Object.values(services as Record<string, object | null>)
    .filter((service) => service !== null)
    .filter(hasLifecycle);

  return {
    config,
    db,
    services,
    pubsub,
    eventBus: events.health,
    logger,
    demo,
    demoAssistant,
    handle: (request) => answer(request, "unknown"),
    listen: async (port = config.port, host = config.host) => {
      const url = await listen(server, port, host);
      if (metricsServer) {
        const metricsUrl = await listen(metricsServer, config.metrics.port!, host);
        logger.info("metrics served", { url: `${metricsUrl}/metrics` });
      }
      // Subscriptions made while the Redis connection is still being set up can miss the events of
      // the first moments (another instance's revocations, seen in multi-instance tests): services
      // that listen start once it is up, or after a bounded wait when Redis is away.
      if (events.connected && !(await events.connected(REDIS_CONNECT_WAIT_MS))) {
        logger.warn("redis not reachable at start; events from other instances arrive once it is");
      }
      for (const service of backgroundServices) await service.start();
      await operatorChannel?.start();
      phase = "ready";
      return url;
    },
    close: async () => {
      phase = "stopping";
      await operatorChannel?.close();
      for (const service of backgroundServices.toReversed()) await service.stop();
      await webSocket.close();
      await closeServer(server);
      if (metricsServer) await closeServer(metricsServer);
      await events.close();
      await db.close();
    },
  };
}
