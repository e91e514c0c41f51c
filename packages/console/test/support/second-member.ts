import { fileURLToPath } from "node:url";
import type { BrowserContext, Page } from "playwright";
import type { BrowserCommand } from "vitest/node";
import { prepare } from "../../../../scripts/prepare.mjs";

const SCREENSHOTS = fileURLToPath(new URL("../../../../docs/console/", import.meta.url));

/**
 * A second member signed in to the console in a browser context of their own (their own storage,
 * their own session), beside the test page: two people using the inbox at once. The console is the
 * one the server serves (/console/), built first when its sources changed.
 */
const members = new Map<string, { context: BrowserContext; page: Page }>();

function member(email: string): Page {
  const found = members.get(email);
  if (!found) throw new Error(`no second member signed in as ${email}`);
  return found.page;
}

export const memberSignIn: BrowserCommand<
  [options: { apiBase: string; email: string; password: string; hash: string; width: number; height: number }]
> = async (context, options) => {
  prepare(["console"]);
  const browser = context.page.context().browser();
  if (!browser) throw new Error("no browser to open a second context in");
  const own = await browser.newContext({ viewport: { width: options.width, height: options.height } });
  const page = await own.newPage();
  members.set(options.email, { context: own, page });
  await page.goto(`${options.apiBase}/console/${options.hash}`);
  await page.getByLabel("Email").fill(options.email);
  await page.getByLabel("Password").fill(options.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Sign out" }).waitFor();
};

/** Clicks the member's control with this role and accessible name. */
export const memberClick: BrowserCommand<[email: string, role: "button" | "link", name: string]> = async (
  _context,
  email,
  role,
  name,
) => {
  await member(email).getByRole(role, { name }).first().click();
};

/** Waits until the member's page shows `text` (inside the console's shadow roots too). */
export const memberSees: BrowserCommand<[email: string, text: string]> = async (_context, email, text) => {
  await member(email).getByText(text).first().waitFor({ state: "visible" });
};

/** Waits until the member's page no longer shows `text`. */
export const memberNoLongerSees: BrowserCommand<[email: string, text: string]> = async (
  _context,
  email,
  text,
) => {
  await member(email).getByText(text).first().waitFor({ state: "hidden" });
};

/** The text of the member's element with this test id, once one is visible; null when none is there. */
export const memberTestIdText: BrowserCommand<[email: string, testId: string]> = async (
  _context,
  email,
  testId,
) => {
  const element = member(email).getByTestId(testId).first();
  return (await element.count()) === 0 ? null : await element.textContent();
};

/** The member's page as docs/console/<name>.png. */
export const memberScreenshot: BrowserCommand<[email: string, name: string]> = async (
  _context,
  email,
  name,
) => {
  await member(email).screenshot({
    path: `${SCREENSHOTS}${name}.png`,
    animations: "disabled",
    caret: "hide",
  });
};

export const memberClose: BrowserCommand<[email: string]> = async (_context, email) => {
  await members.get(email)?.context.close();
  members.delete(email);
};

declare module "vitest/browser" {
  interface BrowserCommands {
    memberSignIn(options: {
      apiBase: string;
      email: string;
      password: string;
      hash: string;
      width: number;
      height: number;
    }): Promise<void>;
    memberClick(email: string, role: "button" | "link", name: string): Promise<void>;
    memberSees(email: string, text: string): Promise<void>;
    memberNoLongerSees(email: string, text: string): Promise<void>;
    memberTestIdText(email: string, testId: string): Promise<string | null>;
    memberScreenshot(email: string, name: string): Promise<void>;
    memberClose(email: string): Promise<void>;
  }
}
