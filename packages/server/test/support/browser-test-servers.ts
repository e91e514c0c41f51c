import { prepare } from "../../../../scripts/prepare.mjs";
import { type App, buildApp } from "../../src/app.ts";
import { loadConfig } from "../../src/env.ts";
import { createLogger } from "../../src/logger.ts";
import { type FakeRealtime, realtimeEnv, startFakeRealtime } from "./fake-realtime.ts";

/** Stops something a global setup started. */
export type Cleanup = () => Promise<void>;

/**
 * The frame of the browser test projects' global setups (widget, console): the widget is built
 * first when its sources changed (stamped, as `npm start` does: the tests load its embed build from
 * the server), then `start` starts servers, pushing how to stop each. Whatever started before a
 * failure is stopped, or the test process would never exit; otherwise the returned teardown stops
 * everything, last started first.
 */
export async function browserTestSetup(start: (cleanups: Cleanup[]) => Promise<void>): Promise<Cleanup> {
  prepare(["widget"]);
  const cleanups: Cleanup[] = [];
  const teardown = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    await start(cleanups);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

/**
 * A real Voxgate server in process on loopback port 0 over in-memory PGlite, answering through the
 * real `openai` client from the OpenAI-compatible test server at `llmBaseUrl` (null: no chat model,
 * the fallback answers); `env` adds settings.
 */
export async function startInProcessServer(
  llmBaseUrl: string | null,
  env: Record<string, string>,
): Promise<{ app: App; url: string }> {
  const config = loadConfig({
    NODE_ENV: "test",
    PORT: "0",
    LOG_LEVEL: "silent",
    VOXGATE_SEED_DEMO: "false",
    ...(llmBaseUrl ? { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: llmBaseUrl } : {}),
    ...env,
  });
  const app = await buildApp(config, {
    database: { kind: "pglite", dataDir: undefined },
    logger: createLogger("silent"),
  });
  const url = await app.listen(0, "127.0.0.1");
  return { app, url };
}

/**
 * The OpenAI Realtime stand-in (fake-realtime.ts) for a browser test server, and the settings that
 * point the server's production Realtime client at it: multimodal and dualplex assistants then talk
 * to it as they would to OpenAI. Stopped with the other servers.
 */
export async function startRealtimeStandIn(
  cleanups: Cleanup[],
): Promise<{ realtime: FakeRealtime; env: Record<string, string> }> {
  const realtime = await startFakeRealtime();
  cleanups.push(() => realtime.close());
  return {
    realtime,
    env: {
      ...realtimeEnv(realtime),
    },
  };
}
