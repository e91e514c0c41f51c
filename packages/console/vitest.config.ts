import { createRequire } from "node:module";
import { playwright } from "@vitest/browser-playwright";
import { defineProject } from "vitest/config";
import { chromiumLaunchOptions } from "../widget/test/support/chromium.ts";
import { fakeMicrophoneArgs } from "../widget/test/support/fake-microphone.ts";
import {
  builtConsoleClick,
  builtConsoleClose,
  builtConsoleHasHeading,
  builtConsoleHeading,
  builtConsoleHolding,
  builtConsoleLoad,
  builtConsoleNetwork,
  builtConsoleOpen,
  builtConsoleRelease,
  builtConsoleSignIn,
  builtConsoleTestIdText,
} from "./test/support/built-console.ts";
import { saveScreenshot, setColorScheme, setViewport } from "./test/support/commands.ts";
import {
  acceptInvitationInSecondContext,
  closeSecondContext,
  openSecondContext,
  visitInSecondContext,
} from "./test/support/second-context.ts";
import {
  memberClick,
  memberClose,
  memberNoLongerSees,
  memberScreenshot,
  memberSees,
  memberSignIn,
  memberTestIdText,
} from "./test/support/second-member.ts";

// The global setup runs the real server in process; like the server's own config, it must get the
// CJS graphql that graphql-yoga gets, or `instanceof GraphQLError` fails across two copies.
const serverRequire = createRequire(new URL("../server/package.json", import.meta.url));

export default defineProject({
  resolve: {
    alias: [{ find: /^graphql$/, replacement: serverRequire.resolve("graphql") }],
  },
  // Known up front, so Vite never re-optimises (and reloads the test page) mid-run.
  optimizeDeps: {
    include: [
      "lit",
      "lit/directives/keyed.js",
      "lit/directives/class-map.js",
      "lit/directives/live.js",
      "lit/directives/style-map.js",
      "graphql-ws",
      "csv-parse/browser/esm/sync",
      "libphonenumber-js/min",
      "axe-core",
    ],
  },
  test: {
    name: "console",
    // After the server's suites, not beside them: the web-call tests play a fake microphone in real
    // time, and on two busy cores its stalls cut and garble the words the server hears.
    sequence: { groupOrder: 1 },
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    expect: { poll: { timeout: 10_000 } },
    browser: {
      enabled: true,
      headless: true,
      screenshotFailures: false,
      viewport: { width: 1280, height: 860 },
      // The test call talks through a fake microphone that plays a generated WAV, as the widget's does.
      provider: playwright({
        launchOptions: {
          ...chromiumLaunchOptions,
          args: [...chromiumLaunchOptions.args, ...fakeMicrophoneArgs("console")],
        },
      }),
      instances: [{ browser: "chromium" }],
      commands: {
        saveScreenshot,
        setViewport,
        setColorScheme,
        openSecondContext,
        acceptInvitationInSecondContext,
        visitInSecondContext,
        closeSecondContext,
        memberSignIn,
        memberClick,
        memberSees,
        memberNoLongerSees,
        memberTestIdText,
        memberScreenshot,
        memberClose,
        builtConsoleOpen,
        builtConsoleSignIn,
        builtConsoleLoad,
        builtConsoleHeading,
        builtConsoleTestIdText,
        builtConsoleHasHeading,
        builtConsoleClick,
        builtConsoleRelease,
        builtConsoleHolding,
        builtConsoleNetwork,
        builtConsoleClose,
      },
    },
  },
});
