import { afterEach, describe, expect, inject, it } from "vitest";
import { commands, page } from "vitest/browser";
import { zonedMidnight } from "../src/screens/insights.ts";
import { createAccount, graphql, signIn, unmountConsole } from "./support/console.ts";

afterEach(async () => {
  unmountConsole();
  await page.viewport(1280, 860);
});

/** Yesterday's history (support/insights-history.ts) for the signed-in account's two assistants. */
async function seedHistory(accountId: number): Promise<{ first: number; second: number }> {
  const make = async (name: string) =>
    (
      await graphql<{ createAssistant: { id: number } }>(
        `mutation { createAssistant(input: { name: "${name}" }) { id } }`,
      )
    ).createAssistant.id;
  const first = await make("Front desk");
  const second = await make("Sales line");
  const response = await fetch(`${inject("controlUrl")}/history`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ accountId, assistantIds: [first, second] }),
  });
  if (!response.ok) throw new Error(`control /history failed: ${response.status}`);
  return { first, second };
}

describe("overview (insights)", () => {
  it("shows the period's figures, charts and endings, and narrows to one assistant", async () => {
    const account = await createAccount();
    await signIn(account);
    await seedHistory(account.accountId);
    await page.getByRole("link", { name: "Overview" }).click();
    await expect.element(page.getByRole("heading", { level: 1, name: "Overview" })).toBeVisible();

    const value = (id: string) => page.getByTestId(`figure-${id}`);
    await expect.element(value("calls")).toHaveTextContent("4");
    await expect.element(value("answer-rate")).toHaveTextContent("75%");
    await expect.element(value("conversations")).toHaveTextContent("1");
    await expect.element(value("minutes")).toHaveTextContent("6");
    await expect.element(value("cost")).toHaveTextContent("$1.50");
    // { success: true } and a score of 9 succeed; a score of 4 does not.
    await expect.element(value("success-rate")).toHaveTextContent("67%");
    await expect.element(value("latency")).toHaveTextContent("700 ms");
    // Read from the latency histogram (docs/console.md#insights): of 400, 600, 800 and 1000 ms, the 95th
    // percentile's rank (3.8 of 4) falls 80% into the 1000–1050 ms bucket.
    await expect.element(value("latency-p95")).toHaveTextContent("1,040 ms");
    await expect.element(value("transfers")).toHaveTextContent("1");
    await expect.element(value("bookings")).toHaveTextContent("1");

    const calls = page.getByRole("img", { name: /^Calls per day: 4 in all, most on .* with 4\.$/ });
    await expect.element(calls).toBeVisible();
    const endings = page.getByRole("table", { name: "Most frequent endings" });
    await expect.element(endings.getByRole("row", { name: /Completed — 2 50%/ })).toBeVisible();
    await expect.element(endings.getByRole("row", { name: /No answer — 1 25%/ })).toBeVisible();
    await commands.saveScreenshot("insights");

    await page.getByLabelText("Assistant").selectOptions("Front desk");
    await expect.element(value("calls")).toHaveTextContent("3");
    await expect.element(value("answer-rate")).toHaveTextContent("67%");
    await expect.element(value("cost")).toHaveTextContent("$0.75");
    await expect.element(value("success-rate")).toHaveTextContent("50%");
    await expect.element(value("bookings")).toHaveTextContent("0");

    // A custom period that ends before yesterday: nothing in it, and the screen says what to do.
    await page.getByLabelText("Period").selectOptions("Custom dates");
    await page.getByLabelText("First day").fill("2026-01-01");
    await page.getByLabelText("Last day").fill("2026-01-07");
    await page.getByRole("button", { name: "Show" }).click();
    await expect
      .element(page.getByTestId("empty-state"))
      .toHaveTextContent("No calls or conversations in this period.");

    // The 7 days again, on a phone: the figures wrap, the page does not widen.
    await page.getByLabelText("Period").selectOptions("Last 7 days");
    await page.getByLabelText("Assistant").selectOptions("All assistants");
    await expect.element(value("calls")).toHaveTextContent("4");
    await page.viewport(390, 844);
    await expect.poll(() => document.documentElement.clientWidth).toBe(390);
    expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(document.documentElement.clientWidth);
    await commands.saveScreenshot("insights-phone");
  });

  it("cuts the account's days at its own midnight", () => {
    expect(zonedMidnight("2027-01-02", "UTC").toISOString()).toBe("2027-01-02T00:00:00.000Z");
    expect(zonedMidnight("2027-01-02", "America/New_York").toISOString()).toBe("2027-01-02T05:00:00.000Z");
    // The day clocks go forward in Berlin starts at UTC+1.
    expect(zonedMidnight("2027-03-28", "Europe/Berlin").toISOString()).toBe("2027-03-27T23:00:00.000Z");
    expect(zonedMidnight("2027-03-29", "Europe/Berlin").toISOString()).toBe("2027-03-28T22:00:00.000Z");
  });
});
