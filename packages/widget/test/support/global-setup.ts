import { createServer } from "node:net";
import type { TestProject } from "vitest/node";
import { browserTestSetup, startInProcessServer } from "../../../server/test/support/browser-test-servers.ts";
import { startFakeCartesia } from "../../../server/test/support/fake-cartesia.ts";
import { startFakeDeepgram } from "../../../server/test/support/fake-deepgram.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../../server/test/support/fake-openai.ts";
import { startFakeSpeech } from "../../../server/test/support/fake-speech.ts";
import { DEMO_QUESTION } from "./commands.ts";
import { startControlServer } from "./control-server.ts";
import { espeakMicrophoneSpeech, removeFakeMicrophone, SPEECH_INSTANCE } from "./fake-microphone.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** The real Voxgate server the widget talks to, with generous rate limits. */
    apiBase: string;
    /** A second server whose per-conversation message limit is 2 a minute. */
    strictApiBase: string;
    /** Arranges data for a test (see control-server.ts). */
    controlUrl: string;
    /** A loopback port where nothing listens: the "network down" case. */
    closedApiBase: string;
    /** The main server through a relay that tests cut and restore (`/network` on the control server). */
    flakyApiBase: string;
    /**
     * In the espeak-ng microphone's instance: the voice the microphone's file carries, measured as
     * the speech fakes measure it (20 ms frames at voice level).
     */
    microphoneSpeech: { voicedMs: number; spanMs: number } | null;
  }
}

/** Messages that start with this make the scripted model answer with the rest, verbatim. */
export const SAY_PREFIX = "say:";
/** Messages that contain this make the scripted model answer after a pause, to show the typing indicator. */
export const SLOW_MARKER = "(slowly)";
/** The first time a message containing this arrives, the scripted model answers with an HTTP 400. */
export const FAIL_ONCE_MARKER = "(model fails once)";

/**
 * Builds the widget when its sources changed, as `npm start` does (the embed tests load
 * dist/voxgate-chat.js from the server; a build of its own here would leave the package without its
 * types, which the packing test checks), then starts two real Voxgate servers on loopback port 0
 * over in-memory PGlite, both answering through the real `openai` client from an OpenAI-compatible
 * test server.
 */
export default function setup(project: TestProject) {
  if (project.name === SPEECH_INSTANCE) return speechSetup(project);
  return browserTestSetup(async (cleanups) => {
    const llm = await startFakeOpenAI();
    cleanups.push(() => llm.close());
    scriptReplies(llm);
    // Web calls hear and speak through the fake speech server (tone speech).
    const speech = await startFakeSpeech();
    cleanups.push(() => speech.close());
    cleanups.push(async () => removeFakeMicrophone());
    const generous = "100000";
    const main = await startInProcessServer(llm.baseUrl, {
      VOXGATE_WIDGET_RATE_LIMIT_PER_MINUTE: generous,
      VOXGATE_CONVERSATION_RATE_LIMIT_PER_MINUTE: generous,
      OPENAI_STT_BASE_URL: speech.baseUrl,
      OPENAI_TTS_BASE_URL: speech.baseUrl,
    });
    cleanups.push(() => main.app.close());
    const strict = await startInProcessServer(llm.baseUrl, {
      VOXGATE_WIDGET_RATE_LIMIT_PER_MINUTE: generous,
      VOXGATE_CONVERSATION_RATE_LIMIT_PER_MINUTE: "2",
    });
    cleanups.push(() => strict.app.close());
    const control = await startControlServer(
      { main: main.app, strict: strict.app },
      { main: main.url, strict: strict.url },
    );
    cleanups.push(() => control.close());

    project.provide("apiBase", main.url);
    project.provide("strictApiBase", strict.url);
    project.provide("controlUrl", control.url);
    project.provide("flakyApiBase", control.flakyApiBase);
    project.provide("closedApiBase", `http://127.0.0.1:${await closedPort()}`);
    project.provide("microphoneSpeech", null);
  });
}

/**
 * The espeak-ng microphone's instance: one server whose web calls transcribe through Deepgram live
 * streaming and speak through Cartesia's WebSocket (local fakes of both), with batch speech as the
 * fallback. Its tests need no second server: `strictApiBase` is the same one.
 */
function speechSetup(project: TestProject) {
  return browserTestSetup(async (cleanups) => {
    const llm = await startFakeOpenAI();
    cleanups.push(() => llm.close());
    scriptReplies(llm);
    const [speech, deepgram, cartesia] = await Promise.all([
      startFakeSpeech(),
      startFakeDeepgram(),
      startFakeCartesia(),
    ]);
    cleanups.push(
      () => speech.close(),
      () => deepgram.close(),
      () => cartesia.close(),
    );
    cleanups.push(async () => removeFakeMicrophone(SPEECH_INSTANCE));
    const main = await startInProcessServer(llm.baseUrl, {
      OPENAI_STT_BASE_URL: speech.baseUrl,
      OPENAI_TTS_BASE_URL: speech.baseUrl,
      VOXGATE_STT_PROVIDER: "deepgram",
      VOXGATE_DEEPGRAM_URL: deepgram.url,
      VOXGATE_DEEPGRAM_API_KEY: "dg-key",
      VOXGATE_TTS_PROVIDER: "cartesia",
      CARTESIA_BASE_URL: cartesia.baseUrl,
      CARTESIA_API_KEY: cartesia.apiKey,
      CARTESIA_VOICE_ID: "cartesia-default-voice",
    });
    cleanups.push(() => main.app.close());
    const control = await startControlServer(
      { main: main.app, strict: main.app },
      { main: main.url, strict: main.url },
      { deepgram, cartesia },
    );
    cleanups.push(() => control.close());
    const microphone = espeakMicrophoneSpeech();
    project.provide("apiBase", main.url);
    project.provide("strictApiBase", main.url);
    project.provide("controlUrl", control.url);
    project.provide("flakyApiBase", control.flakyApiBase);
    project.provide("closedApiBase", `http://127.0.0.1:${await closedPort()}`);
    project.provide("microphoneSpeech", {
      voicedMs: microphone.voicedMs,
      spanMs: microphone.speechEndMs - microphone.speechStartMs,
    });
  });
}

function scriptReplies(llm: FakeOpenAI) {
  const failedOnce = new Set<string>();
  llm.respondWith((request) => {
    const last = request.messages.findLast((message) => message.role === "user")?.content ?? "";
    if (last.includes(FAIL_ONCE_MARKER) && !failedOnce.has(last)) {
      failedOnce.add(last);
      // 400, because the openai client retries 5xx by itself and the widget would never see the failure.
      return { error: { status: 400, message: "The model rejected the request." } };
    }
    const content =
      last === DEMO_QUESTION
        ? "I can help with:\n\n- **Orders** and delivery times\n- **Returns** within 30 days\n- Opening hours of our shops\n\nWhat would you like to know?"
        : last.startsWith(SAY_PREFIX)
          ? last.slice(SAY_PREFIX.length).trimStart()
          : `Echo: ${last}`;
    return { content, delayMs: last.includes(SLOW_MARKER) ? 1500 : 0 };
  });
}

/** A port that was free a moment ago and is closed now: connections to it are refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === "object" && address ? address.port : 9;
}
