import { afterEach, describe, expect, inject, it, onTestFinished } from "vitest";
import { commands, page } from "vitest/browser";
import { createAccount, signIn, unmountConsole } from "./support/console.ts";

afterEach(async () => {
  unmountConsole();
  await commands.setViewport(1280, 860);
});

/** Answers every confirm() of the test with yes. */
function acceptConfirms(): void {
  const original = window.confirm;
  window.confirm = () => true;
  onTestFinished(() => {
    window.confirm = original;
  });
}

/** The "Invitation email" cell of the pending invitation to `email`. */
const emailStatusOf = (email: string) =>
  page.getByRole("row", { name: new RegExp(email.replace(/[.+]/g, "\\$&")) }).getByTestId("email-status");

describe("team invitations by email (a server with SMTP)", () => {
  for (const [label, width, height] of [
    ["desktop", 1280, 860],
    ["phone", 390, 844],
  ] as const) {
    it(`shows each invitation's email status, a refusal's reason, and resends (${label})`, async () => {
      acceptConfirms();
      await commands.setViewport(width, height);
      await page.viewport(width, height);
      onTestFinished(() => page.viewport(1280, 860));
      // The second test server emails links through a real SMTP server that refuses @bounce.example.
      const owner = await createAccount({ server: "deaf" });
      await signIn(owner, "#/team", inject("deafApiBase"));
      await expect.element(page.getByText(/The invitation link is emailed to the person/)).toBeVisible();

      const delivered = `email-${label}-${Date.now()}@example.com`;
      await page.getByLabelText("Email", { exact: true }).fill(delivered);
      await page.getByRole("button", { name: "Create invitation link" }).click();
      const shown = page.getByTestId("shown-once");
      await expect.element(page.getByText(`The invitation is being emailed to ${delivered}`)).toBeVisible();
      await expect.element(shown).toHaveTextContent(/#\/invite\/vgi_/);
      const first = /vgi_[A-Za-z0-9_-]+/.exec(shown.element().textContent ?? "")![0];
      await expect.element(emailStatusOf(delivered)).toHaveTextContent(/^Sent /);

      const bounced = `email-${label}-${Date.now()}@bounce.example`;
      await page.getByLabelText("Email", { exact: true }).fill(bounced);
      await page.getByRole("button", { name: "Create invitation link" }).click();
      await expect.element(page.getByText(`The invitation is being emailed to ${bounced}`)).toBeVisible();
      await expect
        .element(emailStatusOf(bounced))
        .toHaveTextContent(/^Failed: The mail server refused the sender or the recipient \(550 /);
      if (label === "desktop") {
        page.getByRole("heading", { name: "Pending invitations" }).element().scrollIntoView();
        await commands.saveScreenshot("team-email");
      }

      // A resend mints a new link (shown once again) and mails it.
      await page.getByRole("button", { name: `Resend the invitation email to ${delivered}` }).click();
      await expect
        .element(page.getByText(`A new invitation link is being emailed to ${delivered}`))
        .toBeVisible();
      const second = /vgi_[A-Za-z0-9_-]+/.exec(shown.element().textContent ?? "")![0];
      expect(second).not.toBe(first);
      await expect.element(emailStatusOf(delivered)).toHaveTextContent(/^Sent /);
      expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(document.documentElement.clientWidth);
    });
  }

  it("says links are not emailed on a server without SMTP, and offers no resend", async () => {
    const owner = await createAccount();
    await signIn(owner, "#/team");
    await expect.element(page.getByText(/this server sends no email/)).toBeVisible();
    const email = `plain-${Date.now()}@example.com`;
    await page.getByLabelText("Email", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Create invitation link" }).click();
    await expect.element(page.getByText(`Send this invitation link to ${email}`)).toBeVisible();
    await expect.element(emailStatusOf(email)).toHaveTextContent("Not emailed");
    expect(page.getByRole("button", { name: /Resend the invitation email/ }).elements()).toHaveLength(0);
  });
});
