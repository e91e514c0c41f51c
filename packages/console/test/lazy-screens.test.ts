import { afterEach, describe, expect, inject, it, onTestFinished } from "vitest";
import { commands } from "vitest/browser";
import { arrangeScreens } from "./support/arrange-screens.ts";
import type { ChunkResponse } from "./support/built-console.ts";
import { createAccount, signIn, unmountConsole } from "./support/console.ts";

afterEach(() => {
  unmountConsole();
});

/** Opens the served build at `hash` (built-console.ts), closed when the test ends. */
async function openBuilt(hash: string, chunks: { refuseOnce?: string[]; hold?: string[] } = {}) {
  const id = await commands.builtConsoleOpen({ apiBase: inject("apiBase"), hash, ...chunks });
  onTestFinished(() => commands.builtConsoleClose(id));
  return id;
}

const scripts = (responses: ChunkResponse[]) =>
  responses.filter((r) => /^\/console\/assets\/.+\.js$/.test(r.path));
const ofChunk = (responses: ChunkResponse[], name: string) =>
  responses.filter((r) => new RegExp(`^/console/assets/${name}-[\\w-]{8}\\.js$`).test(r.path));

/**
 * Every script the page got came from the server's own origin, as JavaScript the browser may keep for a
 * year (content-hashed names), and nothing was asked of any other host.
 */
async function expectServedLocally(id: string): Promise<ChunkResponse[]> {
  const { responses, foreign } = await commands.builtConsoleNetwork(id);
  expect(foreign).toEqual([]);
  for (const script of scripts(responses).filter((r) => r.status !== 503)) {
    expect(script, script.path).toMatchObject({
      status: 200,
      contentType: "text/javascript; charset=utf-8",
      cacheControl: "public, max-age=31536000, immutable",
    });
  }
  return responses;
}

describe("screens loaded on demand (the served build)", () => {
  it("fetches no screen before sign-in, then each screen's chunk on its first visit, with a loading state until it arrives", async () => {
    const account = await createAccount();
    const id = await openBuilt("#/calls", { hold: ["calls"] });
    await commands.builtConsoleHeading(id, "^Sign in to Voxgate$");
    const beforeSignIn = await expectServedLocally(id);
    const initial = scripts(beforeSignIn).map((r) => r.path);
    // The entry and what it imports: no screen's chunk for the sign-in form.
    expect(initial.length).toBeGreaterThan(0);
    expect(ofChunk(beforeSignIn, "calls")).toEqual([]);
    expect(ofChunk(beforeSignIn, "inbox")).toEqual([]);

    await commands.builtConsoleSignIn(id, account.email, account.password);
    // The deep link's screen is on its way, and held back by the test: the loading state shows.
    await expect.poll(() => commands.builtConsoleHolding(id, "calls")).toBe(true);
    expect(await commands.builtConsoleTestIdText(id, "screen-loading")).toBe("Loading…");
    expect(await commands.builtConsoleHasHeading(id)).toBe(false);
    await commands.builtConsoleRelease(id, "calls");
    await commands.builtConsoleHeading(id, "^Calls$");

    // Another section fetches its own chunk on its first visit.
    await commands.builtConsoleClick(id, "link", "Inbox");
    await commands.builtConsoleHeading(id, "^Inbox$");
    // The network log records a response once its headers are read, which may come after the heading shows.
    await expect
      .poll(async () => ofChunk(await expectServedLocally(id), "inbox").map((r) => r.status))
      .toEqual([200]);
    const after = await expectServedLocally(id);
    expect(ofChunk(after, "calls").map((r) => r.status)).toEqual([200]);
    // The page itself is checked on every load, so a release's new chunk names reach the browser.
    expect(after.find((r) => r.path === "/console/")).toMatchObject({
      status: 200,
      cacheControl: "no-cache",
    });
  });

  it("shows a screen whose chunk the server refused as failed, with a retry that loads it, the rest still usable", async () => {
    const account = await createAccount();
    const id = await openBuilt("#/calls", { refuseOnce: ["calls"] });
    await commands.builtConsoleSignIn(id, account.email, account.password);
    expect(await commands.builtConsoleTestIdText(id, "screen-failed")).toMatch(
      /This screen could not be loaded\./,
    );
    expect(await commands.builtConsoleHasHeading(id)).toBe(false);

    // The navigation and the other screens work meanwhile; the failed one stays failed until retried.
    await commands.builtConsoleClick(id, "link", "Inbox");
    await commands.builtConsoleHeading(id, "^Inbox$");
    await commands.builtConsoleClick(id, "link", "Calls");
    expect(await commands.builtConsoleTestIdText(id, "screen-failed")).toMatch(/Retry/);

    await commands.builtConsoleClick(id, "button", "Retry");
    await commands.builtConsoleHeading(id, "^Calls$");
    // The page records a response once its headers are read, which may be after the screen shows.
    await expect
      .poll(async () =>
        ofChunk((await commands.builtConsoleNetwork(id)).responses, "calls").map((r) => r.status),
      )
      .toEqual([503, 200]);
    await expectServedLocally(id);
  });

  it("opens a deep link to every screen as a new page load", { timeout: 180_000 }, async () => {
    const account = await createAccount({ operator: true });
    // The records the screens show, arranged through the API as this page's session.
    await signIn(account);
    const screens = await arrangeScreens();
    const id = await openBuilt("#/assistants");
    await commands.builtConsoleSignIn(id, account.email, account.password);
    for (const [hash, heading] of screens) {
      await commands.builtConsoleLoad(id, inject("apiBase"), hash);
      await commands.builtConsoleHeading(id, heading.source);
    }
    await expectServedLocally(id);
  });
});
