import { fileURLToPath } from "node:url";
import type { BrowserCommand } from "vitest/node";

const SCREENSHOTS = fileURLToPath(new URL("../../../../docs/console/", import.meta.url));

/** Saves the console as it is now into docs/console/<name>.png, which docs/console.md shows. */
export const saveScreenshot: BrowserCommand<[name: string]> = async (context, name) => {
  await context.iframe.locator("voxgate-console").screenshot({
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

declare module "vitest/browser" {
  interface BrowserCommands {
    saveScreenshot(name: string): Promise<void>;
    setViewport(width: number, height: number): Promise<void>;
  }
}
