import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright";
import type { BrowserCommand } from "vitest/node";

/**
 * A second person at another browser: a new Playwright context of the test's own Chromium (its own
 * storage, so its own session), driven from the test through these commands.
 */
const SCREENSHOTS = fileURLToPath(new URL("../../../../docs/console/", import.meta.url));
const contexts = new Map<string, { context: BrowserContext; page: Page }>();
let next = 0;

/** Opens `url` in a fresh browser context at `width`×`height`; returns its handle. */
export const openSecondContext: BrowserCommand<[url: string, width: number, height: number]> = async (
  context,
  url,
  width,
  height,
) => {
  const browser = context.page.context().browser() as Browser;
  const second = await browser.newContext({ viewport: { width, height } });
  const page = await second.newPage();
  await page.goto(url);
  const id = `second-${++next}`;
  contexts.set(id, { context: second, page });
  return id;
};

/**
 * Accepts the invitation open in context `id` (name and password), waits for the signed-in console and
 * answers the navigation's link names and the document's width, as the invitee sees them.
 */
export const acceptInvitationInSecondContext: BrowserCommand<
  [id: string, name: string, password: string, screenshot: string | null]
> = async (_context, id, name, password, screenshot) => {
  const { page } = contexts.get(id)!;
  await page.getByRole("heading", { name: "Join Voxgate" }).waitFor();
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Password (at least 8 characters)").fill(password);
  await page.getByLabel("Password again").fill(password);
  await page.getByRole("button", { name: "Join and sign in" }).click();
  await page.getByRole("button", { name: "Sign out" }).waitFor();
  // The role arrives with the sign-in: the navigation is the agent's from the first paint.
  const nav = page.getByRole("navigation", { name: "Sections" });
  await nav.getByRole("link", { name: "Inbox" }).waitFor();
  if (screenshot) {
    await page.screenshot({ path: `${SCREENSHOTS}${screenshot}.png`, animations: "disabled", caret: "hide" });
  }
  return {
    links: await nav.getByRole("link").allInnerTexts(),
    documentWidth: await page.evaluate(() => document.documentElement.scrollWidth),
    hash: await page.evaluate(() => location.hash),
  };
};

/** The first alert's text after opening `hash` in context `id` (a screen an agent may not use). */
export const visitInSecondContext: BrowserCommand<[id: string, hash: string]> = async (
  _context,
  id,
  hash,
) => {
  const { page } = contexts.get(id)!;
  await page.evaluate((target) => {
    location.hash = target;
  }, hash);
  await page.getByRole("alert").first().waitFor();
  return (await page.getByRole("alert").first().textContent()) ?? "";
};

export const closeSecondContext: BrowserCommand<[id: string]> = async (_context, id) => {
  await contexts.get(id)?.context.close();
  contexts.delete(id);
};

declare module "vitest/browser" {
  interface BrowserCommands {
    openSecondContext(url: string, width: number, height: number): Promise<string>;
    acceptInvitationInSecondContext(
      id: string,
      name: string,
      password: string,
      screenshot: string | null,
    ): Promise<{ links: string[]; documentWidth: number; hash: string }>;
    visitInSecondContext(id: string, hash: string): Promise<string>;
    closeSecondContext(id: string): Promise<void>;
  }
}
