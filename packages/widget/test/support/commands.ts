import { fileURLToPath } from "node:url";
import type { BrowserCommand } from "vitest/node";

/** The screenshot docs/widget.md shows; every run of the demo test refreshes it. */
const SCREENSHOT_PATH = fileURLToPath(new URL("../../../../docs/widget-screenshot.png", import.meta.url));

export interface DemoPageResult {
  launcherLabel: string | null;
  dialogTitle: string;
  reply: string;
  pageErrors: string[];
}

/** The question the scripted model answers with a Markdown reply, for the demo and its screenshot. */
export const DEMO_QUESTION = "What can you help me with?";

/**
 * Opens the server's demo page in its own tab (it lives on the server's origin, which the test
 * iframe cannot look into), chats once as a visitor would, and saves a screenshot for the docs.
 */
export const showDemoPage: BrowserCommand<[url: string]> = async (context, url): Promise<DemoPageResult> => {
  const demo = await context.context.newPage();
  const pageErrors: string[] = [];
  demo.on("pageerror", (error) => pageErrors.push(error.message));
  try {
    await demo.setViewportSize({ width: 1000, height: 760 });
    await demo.goto(url);
    const launcher = demo.getByRole("button", { name: "Open chat" });
    await launcher.waitFor();
    const launcherLabel = await launcher.getAttribute("aria-label");
    await launcher.click();
    const dialog = demo.getByRole("dialog");
    await demo.getByRole("textbox", { name: "Message" }).fill(DEMO_QUESTION);
    await demo.keyboard.press("Enter");
    const reply = demo.locator("[part~=message-assistant]").nth(1);
    await reply.waitFor();
    await demo.getByRole("textbox", { name: "Message" }).fill("Where is my order?");
    // Only the widget's corner: the rest of the page shows this run's port and uuid, which would make
    // the committed image change on every run.
    await demo.screenshot({
      path: SCREENSHOT_PATH,
      clip: { x: 598, y: 100, width: 402, height: 660 },
      animations: "disabled",
      caret: "hide",
    });
    return {
      launcherLabel,
      dialogTitle: (await dialog.getByRole("heading").textContent()) ?? "",
      reply: (await reply.textContent())?.trim() ?? "",
      pageErrors,
    };
  } finally {
    await demo.close();
  }
};

/** What the visitor's system asks for; `theme="auto"` follows it. */
export const emulateColorScheme: BrowserCommand<[scheme: "light" | "dark"]> = async (context, scheme) => {
  await context.page.emulateMedia({ colorScheme: scheme });
};

declare module "vitest/browser" {
  interface BrowserCommands {
    emulateColorScheme(scheme: "light" | "dark"): Promise<void>;
    showDemoPage(url: string): Promise<DemoPageResult>;
  }
}
