import { afterEach, describe, expect, it } from "vitest";
import { commands, page } from "vitest/browser";
import { arrangeScreens } from "./support/arrange-screens.ts";
import { seriousViolations } from "./support/axe.ts";
import { createAccount, mountConsole, signIn, unmountConsole } from "./support/console.ts";

afterEach(async () => {
  unmountConsole();
  await commands.setColorScheme("light");
});

/** The lists of a new account, each with its empty state. */
const EMPTY_SCREENS: [hash: string, heading: RegExp][] = [
  ["#/assistants", /^Assistants$/],
  ["#/knowledge", /^Knowledge bases$/],
  ["#/inbox", /^Inbox$/],
  ["#/calls", /^Calls$/],
  ["#/campaigns", /^Campaigns$/],
  ["#/numbers", /^Phone numbers$/],
  ["#/keys", /^API keys$/],
  ["#/insights", /^Overview$/],
];

describe("accessibility (axe-core, WCAG 2.2 AA)", () => {
  for (const scheme of ["light", "dark"] as const) {
    it(`has no serious or critical violation on any screen in the ${scheme} theme`, {
      timeout: 180_000,
    }, async () => {
      await commands.setColorScheme(scheme);
      expect(matchMedia("(prefers-color-scheme: dark)").matches).toBe(scheme === "dark");
      const account = await createAccount({ operator: true });
      const found: string[] = [];

      mountConsole();
      await expect.element(page.getByRole("heading", { name: "Sign in to Voxgate" })).toBeVisible();
      found.push(...(await seriousViolations("sign-in")));
      unmountConsole();

      await signIn(account);
      for (const [hash, heading] of await arrangeScreens()) {
        location.hash = hash;
        await expect
          .element(page.getByRole("heading", { level: 1, name: heading }), { message: hash })
          .toBeVisible();
        await expect.poll(() => page.getByText("Loading…").elements().length, { message: hash }).toBe(0);
        found.push(...(await seriousViolations(hash)));
      }

      // A new account's lists are empty: each says what to do next (operator-polish.test.ts).
      unmountConsole();
      await signIn(await createAccount());
      for (const [hash, heading] of EMPTY_SCREENS) {
        location.hash = hash;
        await expect
          .element(page.getByRole("heading", { level: 1, name: heading }), { message: hash })
          .toBeVisible();
        await expect.element(page.getByTestId("empty-state"), { message: hash }).toBeVisible();
        found.push(...(await seriousViolations(`${hash} (empty)`)));
      }
      expect(found).toEqual([]);
    });
  }
});
