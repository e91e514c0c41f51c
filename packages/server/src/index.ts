/**
 * The package's public entry: what a host (an embedding process, the benchmarks) needs to build,
 * configure and run the server. Anything not exported here is internal.
 */
export { type App, type AppOptions, buildApp } from "./app.ts";
export type { Context } from "./context.ts";
export type { Database, DatabaseTarget, PrismaClient } from "./db/client.ts";
export { type Config, ConfigError, type EnvInput, loadConfig } from "./env.ts";
export type { Prisma } from "./generated/prisma/client.ts";
export { MAX_GRAPHQL_MESSAGE_BYTES, MAX_UPLOAD_BYTES } from "./limits.ts";
export { createLogger, type LogDestination, type Logger, type LoggerOptions } from "./logger.ts";
export type { PubSub } from "./pubsub.ts";
export type { DemoCredentials } from "./seed/seed.ts";
export type { Services } from "./services.ts";
