import { afterEach, describe, expect, inject, it } from "vitest";
import { commands, page } from "vitest/browser";
import { createAccount, signIn, unmountConsole } from "./support/console.ts";

afterEach(async () => {
  unmountConsole();
  await commands.setViewport(1280, 860);
});

/** What an agent's navigation holds: no keys, numbers, calendars, webhooks, balance, admin or team. */
const AGENT_NAV = [
  "Overview",
  "Assistants",
  "Knowledge",
  "Inbox",
  "Calls",
  "Campaigns",
  "Appointments",
  "Tests",
];

describe("team (issue #33: account members)", () => {
  for (const [label, width, height] of [
    ["desktop", 1280, 860],
    ["phone", 390, 844],
  ] as const) {
    it(`an owner invites an agent, who joins in a second browser and sees the agent's navigation (${label})`, async () => {
      await commands.setViewport(width, height);
      const owner = await createAccount();
      await signIn(owner, "#/team");
      await expect.element(page.getByRole("heading", { level: 1, name: "Team" })).toBeVisible();
      await expect.element(page.getByRole("link", { name: "Team" })).toBeVisible();

      const email = `agent-${label}-${Date.now()}@example.com`;
      await page.getByLabelText("Email", { exact: true }).fill(email);
      await page.getByLabelText("Role", { exact: true }).selectOptions("agent");
      await page.getByRole("button", { name: "Create invitation link" }).click();
      const shown = page.getByTestId("shown-once");
      await expect.element(shown).toHaveTextContent(/#\/invite\/vgi_/);
      const token = /vgi_[A-Za-z0-9_-]+/.exec(shown.element().textContent ?? "")![0];
      await expect.element(page.getByRole("cell", { name: email, exact: true })).toBeVisible();
      if (label === "desktop") await commands.saveScreenshot("team");

      const invitee = await commands.openSecondContext(
        `${inject("apiBase")}/console/#/invite/${token}`,
        width,
        height,
      );
      try {
        const seen = await commands.acceptInvitationInSecondContext(
          invitee,
          "Ada Agent",
          "a long password",
          label === "desktop" ? "team-agent" : null,
        );
        expect(seen.hash).toBe("#/inbox");
        expect(seen.links).toEqual(AGENT_NAV);
        expect(seen.documentWidth).toBeLessThanOrEqual(width);
        // The server refuses what the navigation hides, whatever the address typed.
        expect(await commands.visitInSecondContext(invitee, "#/keys")).toMatch(
          /role \(agent\) does not allow/,
        );
      } finally {
        await commands.closeSecondContext(invitee);
      }

      // The owner's screen, read again, lists the new member and no longer the invitation.
      location.hash = "#/assistants";
      await expect.element(page.getByRole("heading", { level: 1, name: "Assistants" })).toBeVisible();
      location.hash = "#/team";
      await expect.element(page.getByRole("cell", { name: "Ada Agent", exact: true })).toBeVisible();
      await expect.element(page.getByLabelText(`Role of ${email}`)).toHaveValue("agent");
      await expect.element(page.getByText("No pending invitations.")).toBeVisible();

      // The last owner cannot step down: the server's refusal shows and the list goes back to Owner.
      await page.getByLabelText(`Role of ${owner.email}`).selectOptions("admin");
      await expect.element(page.getByRole("alert")).toHaveTextContent("An account needs an owner");
      await expect.element(page.getByLabelText(`Role of ${owner.email}`)).toHaveValue("owner");
    });
  }

  it("says when an invitation link is no longer valid", async () => {
    history.replaceState(null, "", "#/invite/vgi_unknown");
    const element = document.createElement("voxgate-console");
    element.setAttribute("api-base", inject("apiBase"));
    document.body.append(element);
    await expect
      .element(page.getByRole("alert"))
      .toHaveTextContent("This link is not valid. Ask for a new one.");
    await expect.element(page.getByRole("link", { name: "Go to sign-in" })).toBeVisible();
  });
});
