import { afterEach, describe, expect, it } from "vitest";
import { page } from "vitest/browser";
import { createAccount, graphql, signIn, unmountConsole } from "./support/console.ts";

afterEach(() => {
  unmountConsole();
});

describe("data & privacy", () => {
  it("sets retention from the balance screen, refusing a bad value, and lists the audit log", async () => {
    await signIn(await createAccount(), "#/billing");
    await expect.element(page.getByRole("heading", { name: "Data & privacy" })).toBeVisible();
    const recordings = page.getByLabelText("Call recordings");
    await expect.element(recordings).toHaveValue(null);
    await expect.element(page.getByLabelText("Audit log entries")).toHaveValue(365);

    await recordings.fill("0");
    await page.getByRole("button", { name: "Save retention" }).click();
    await expect.element(page.getByText(/recording days field must be at least 1/i)).toBeVisible();

    await recordings.fill("30");
    await page.getByRole("button", { name: "Save retention" }).click();
    await expect.element(page.getByRole("cell", { name: "retention.updated" })).toBeVisible();
    await expect.element(page.getByRole("cell", { name: "account.signed_in" })).toBeVisible();
    const { dataRetention } = await graphql<{ dataRetention: { recordingDays: number | null } }>(
      "query { dataRetention { recordingDays } }",
    );
    expect(dataRetention.recordingDays).toBe(30);
    await expect.element(page.getByLabelText("Call recordings")).toHaveValue(30);
  });
});
