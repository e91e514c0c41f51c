import { fileURLToPath } from "node:url";
import type { BrowserCommand } from "vitest/node";

const SCREENSHOTS = fileURLToPath(new URL("../../../../docs/console/", import.meta.url));

/**
 * Saves what the test page shows now into docs/console/<name>.png, which docs/console.md shows. The
 * frame's view, not the console element: Chromium paints only the part of a taller element that lies in
 * the frame's viewport, so long screens (an assistant's editor) came out mostly blank.
 */
export const saveScreenshot: BrowserCommand<[name: string]> = async (context, name) => {
  const frame = await context.frame();
  await (await frame.frameElement()).screenshot({
    path: `${SCREENSHOTS}${name}.png`,
    animations: "disabled",
    caret: "hide",
  });
};

/** Resizes the test page, e.g. to a 390 px phone. */
export const setViewport: BrowserCommand<[width: number, height: number]> = async (
  context,
  width,
  height,
) => {
  await context.page.setViewportSize({ width, height });
};

/** Emulates the system's light or dark preference, which the console's theme follows. */
export const setColorScheme: BrowserCommand<[scheme: "light" | "dark"]> = async (context, scheme) => {
  await context.page.emulateMedia({ colorScheme: scheme });
};

declare module "vitest/browser" {
  interface BrowserCommands {
    saveScreenshot(name: string): Promise<void>;
    setViewport(width: number, height: number): Promise<void>;
    setColorScheme(scheme: "light" | "dark"): Promise<void>;
  }
}
