import { createRequire } from "node:module";
import { playwright } from "@vitest/browser-playwright";
import { configDefaults, defineProject } from "vitest/config";
import { chromiumLaunchOptions } from "./test/support/chromium.ts";
import { emulateColorScheme, showDemoPage } from "./test/support/commands.ts";
import { espeakMicrophoneArgs, fakeMicrophoneArgs, SPEECH_INSTANCE } from "./test/support/fake-microphone.ts";

// The global setup runs the real server in process; like the server's own config, it must get the
// CJS graphql that graphql-yoga gets, or `instanceof GraphQLError` fails across two copies.
const serverRequire = createRequire(new URL("../server/package.json", import.meta.url));

// Chromium's microphone file is set at launch: the web call with real speech (espeak-ng) runs in a
// second Chromium of its own, whose global setup starts a server with streaming speech fakes.
const SPEECH_TEST = "test/web-call-speech.test.ts";
const espeakArgs = espeakMicrophoneArgs();

export default defineProject({
  resolve: {
    alias: [{ find: /^graphql$/, replacement: serverRequire.resolve("graphql") }],
  },
  test: {
    name: "widget",
    // After the server's suites, not beside them: the web-call tests play a fake microphone in real
    // time, and on two busy cores its stalls cut and garble the words the server hears.
    sequence: { groupOrder: 1 },
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 30_000,
    hookTimeout: 120_000,
    // expect.element waits for replies that pass through a real server and model round trip.
    expect: { poll: { timeout: 8_000 } },
    browser: {
      enabled: true,
      headless: true,
      screenshotFailures: false,
      viewport: { width: 1280, height: 800 },
      // The web call test talks through a fake microphone that plays a generated WAV.
      provider: playwright({
        launchOptions: {
          ...chromiumLaunchOptions,
          args: [...chromiumLaunchOptions.args, ...fakeMicrophoneArgs()],
        },
      }),
      instances: [
        { browser: "chromium", exclude: [...configDefaults.exclude, SPEECH_TEST] },
        ...(espeakArgs
          ? [
              {
                browser: "chromium" as const,
                name: SPEECH_INSTANCE,
                include: [SPEECH_TEST],
                provider: playwright({
                  launchOptions: {
                    ...chromiumLaunchOptions,
                    args: [...chromiumLaunchOptions.args, ...espeakArgs],
                  },
                }),
              },
            ]
          : []),
      ],
      commands: { emulateColorScheme, showDemoPage },
    },
  },
});
