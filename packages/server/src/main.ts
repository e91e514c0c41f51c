import { databaseTarget, openDatabase } from "./db/client.ts";
import { ConfigError, loadConfig } from "./env.ts";
import { requestThreadSlice } from "./modules/media/index.ts";
import { modelSetup } from "./modules/providers/model-setup.ts";

function fail(error: unknown): never {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(error);
  throw error;
}

// The embedded database boots in a process of its own (seconds of WebAssembly start and recovery):
// it starts before the app's modules load, so that the two overlap on a machine with two cores.
const opening = openDatabase(databaseTarget(config));
// Awaited by buildApp; until then a failure must not count as an unhandled rejection.
opening.catch(() => {});
const { buildApp } = await import("./app.ts");
const app = await buildApp(config, { opening }).catch(fail);
// Without its database the server can only answer errors: stop, so that a supervisor restarts it.
app.db.onCrash(fail);
await app.listen().catch(fail);
if (config.voice.relayThreadSliceUs > 0) {
  // The main thread relays every call's frames (modules/media/thread-slice.ts): process.pid is its thread id.
  const slice = await requestThreadSlice(process.pid, config.voice.relayThreadSliceUs);
  app.logger.info("relay thread slice", { threadId: process.pid, ...slice });
}
const base = config.publicBaseUrl;
const where = app.db.kind === "postgres" ? "PostgreSQL (DATABASE_URL)" : `PGlite in ${config.dataDir}`;
const lines = [
  "",
  `Voxgate is running (data: ${where}).`,
  `  GraphiQL     ${base}/graphql`,
  `  REST API     ${base}/api (reference: ${base}/api/docs)`,
  `  Widget demo  ${base}/widget/demo${app.demoAssistant ? `?assistant=${app.demoAssistant}` : ""}`,
  `  Console      ${base}/console/`,
];
const model = modelSetup(config);
lines.push(
  `  Model        ${model.configured ? `${model.chat} (embeddings ${model.embeddings})` : "none configured"}`,
);
if (model.notice) {
  lines.push("", model.notice);
  app.logger.warn("no chat model configured", { embeddings: model.embeddings });
}
if (app.demo) {
  lines.push(
    "",
    "A demo account was created (a platform operator on a fresh installation). These credentials are shown only this once:",
    `  email     ${app.demo.email}`,
    `  password  ${app.demo.password}`,
    `  API key   ${app.demo.apiKey}`,
    "",
    `  Try it:   curl -H "Authorization: Bearer ${app.demo.apiKey}" ${base}/api/user/api-keys`,
  );
}
process.stdout.write(`${lines.join("\n")}\n\n`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    app.logger.info("shutting down", { signal });
    app.close().then(
      () => process.exit(0),
      (error: unknown) => fail(error),
    );
  });
}
