import type { BrowserContext, Page, Route } from "playwright";
import type { BrowserCommand } from "vitest/node";
import { prepare } from "../../../../scripts/prepare.mjs";

/**
 * The console as a browser gets it in production: the build (`vite build`, made first when its
 * sources changed) served by the real server at /console/, in a browser context of its own (its own
 * cache and storage). The test can hold or refuse the first request of a screen's chunk, and reads
 * every response the page got.
 */
interface Opened {
  context: BrowserContext;
  page: Page;
  /** Chunk names (`calls` for assets/calls-<hash>.js) whose next request is refused with a 503. */
  refuseOnce: Set<string>;
  /** Chunk names whose first request waits for `builtConsoleRelease`. */
  held: Map<string, Hold>;
  responses: ChunkResponse[];
  /** Requests the page made to another origin than the server's. */
  foreign: string[];
}

interface Hold {
  release: () => void;
  released: Promise<void>;
  /** The request came and waits. */
  waiting: boolean;
  done: boolean;
}

export interface ChunkResponse {
  path: string;
  status: number;
  contentType: string | null;
  cacheControl: string | null;
}

const opened = new Map<string, Opened>();
let next = 0;

function get(id: string): Opened {
  const found = opened.get(id);
  if (!found) throw new Error(`no built console open as ${id}`);
  return found;
}

/** The chunk name of an asset path: `/console/assets/calls-DyoZB2fP.js` → `calls`. */
function chunkName(path: string): string | null {
  return /^\/console\/assets\/(.+)-[\w-]{8}\.js$/.exec(path)?.[1] ?? null;
}

/** Opens `${apiBase}/console/${hash}` in a fresh context of the test's own Chromium; returns its handle. */
export const builtConsoleOpen: BrowserCommand<
  [options: { apiBase: string; hash: string; refuseOnce?: string[]; hold?: string[] }]
> = async (context, options) => {
  prepare(["console"]);
  const browser = context.page.context().browser();
  if (!browser) throw new Error("no browser to open a context in");
  const own = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await own.newPage();
  const origin = new URL(options.apiBase).origin;
  const state: Opened = {
    context: own,
    page,
    refuseOnce: new Set(options.refuseOnce ?? []),
    held: new Map(),
    responses: [],
    foreign: [],
  };
  for (const name of options.hold ?? []) {
    let release = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const hold: Hold = { release: () => release(), released, waiting: false, done: false };
    state.held.set(name, hold);
  }
  await own.route(
    (url) => url.origin === origin && url.pathname.startsWith("/console/assets/"),
    async (route: Route) => {
      const name = chunkName(new URL(route.request().url()).pathname);
      if (name && state.refuseOnce.delete(name)) {
        await route.fulfill({
          status: 503,
          contentType: "application/json",
          body: '{"message":"Unavailable."}',
        });
        return;
      }
      const hold = name ? state.held.get(name) : undefined;
      if (hold && !hold.done) {
        hold.waiting = true;
        await hold.released;
        hold.waiting = false;
        hold.done = true;
      }
      await route.continue();
    },
  );
  own.on("request", (request) => {
    const url = new URL(request.url());
    if (url.origin !== origin && url.protocol !== "data:") state.foreign.push(request.url());
  });
  page.on("response", async (response) => {
    const url = new URL(response.url());
    if (url.origin !== origin || !url.pathname.startsWith("/console/")) return;
    state.responses.push({
      path: url.pathname,
      status: response.status(),
      contentType: (await response.headerValue("content-type")) ?? null,
      cacheControl: (await response.headerValue("cache-control")) ?? null,
    });
  });
  await page.goto(`${options.apiBase}/console/${options.hash}`);
  const id = `built-${++next}`;
  opened.set(id, state);
  return id;
};

/** Signs in through the built console's form and waits for the signed-in frame. */
export const builtConsoleSignIn: BrowserCommand<[id: string, email: string, password: string]> = async (
  _context,
  id,
  email,
  password,
) => {
  const { page } = get(id);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("button", { name: "Sign out" }).waitFor();
};

/** Loads the page again at `hash`, as a deep link opened in a new tab does (the session is stored). */
export const builtConsoleLoad: BrowserCommand<[id: string, apiBase: string, hash: string]> = async (
  _context,
  id,
  apiBase,
  hash,
) => {
  const { page } = get(id);
  // A navigation that only changes the fragment keeps the document: leave it first.
  await page.goto("about:blank");
  await page.goto(`${apiBase}/console/${hash}`);
};

/** Waits until a level-1 heading matching `pattern` (a regular expression's source) is visible. */
export const builtConsoleHeading: BrowserCommand<[id: string, pattern: string]> = async (
  _context,
  id,
  pattern,
) => {
  await get(id)
    .page.getByRole("heading", { level: 1, name: new RegExp(pattern) })
    .waitFor({ state: "visible" });
};

/** The text of the element with this test id once it is visible. */
export const builtConsoleTestIdText: BrowserCommand<[id: string, testId: string]> = async (
  _context,
  id,
  testId,
) => {
  const element = get(id).page.getByTestId(testId).first();
  await element.waitFor({ state: "visible" });
  return (await element.textContent()) ?? "";
};

/** Whether a level-1 heading is on the page now (no waiting). */
export const builtConsoleHasHeading: BrowserCommand<[id: string]> = async (_context, id) =>
  (await get(id).page.getByRole("heading", { level: 1 }).count()) > 0;

export const builtConsoleClick: BrowserCommand<[id: string, role: "button" | "link", name: string]> = async (
  _context,
  id,
  role,
  name,
) => {
  await get(id).page.getByRole(role, { name, exact: true }).first().click();
};

/** Lets the held request of chunk `name` through. */
export const builtConsoleRelease: BrowserCommand<[id: string, name: string]> = async (_context, id, name) => {
  const hold = get(id).held.get(name);
  if (hold) hold.release();
  else throw new Error(`no request of ${name} is held`);
};

/** Whether the request of chunk `name` came and is being held. */
export const builtConsoleHolding: BrowserCommand<[id: string, name: string]> = async (_context, id, name) =>
  get(id).held.get(name)?.waiting ?? false;

/** The responses under /console/ so far, and the requests made to any other origin. */
export const builtConsoleNetwork: BrowserCommand<[id: string]> = async (_context, id) => {
  const { responses, foreign } = get(id);
  return { responses: [...responses], foreign: [...foreign] };
};

export const builtConsoleClose: BrowserCommand<[id: string]> = async (_context, id) => {
  const found = opened.get(id);
  for (const hold of found?.held.values() ?? []) hold.release();
  await found?.context.close();
  opened.delete(id);
};

declare module "vitest/browser" {
  interface BrowserCommands {
    builtConsoleOpen(options: {
      apiBase: string;
      hash: string;
      refuseOnce?: string[];
      hold?: string[];
    }): Promise<string>;
    builtConsoleSignIn(id: string, email: string, password: string): Promise<void>;
    builtConsoleLoad(id: string, apiBase: string, hash: string): Promise<void>;
    builtConsoleHeading(id: string, pattern: string): Promise<void>;
    builtConsoleTestIdText(id: string, testId: string): Promise<string>;
    builtConsoleHasHeading(id: string): Promise<boolean>;
    builtConsoleClick(id: string, role: "button" | "link", name: string): Promise<void>;
    builtConsoleRelease(id: string, name: string): Promise<void>;
    builtConsoleHolding(id: string, name: string): Promise<boolean>;
    builtConsoleNetwork(id: string): Promise<{ responses: ChunkResponse[]; foreign: string[] }>;
    builtConsoleClose(id: string): Promise<void>;
  }
}
