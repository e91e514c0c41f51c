import { afterEach, describe, expect, inject, it } from "vitest";
import { commands, page } from "vitest/browser";
import { createAccount, graphql, signIn, unmountConsole } from "./support/console.ts";

let secondMember: string | null = null;

afterEach(async () => {
  unmountConsole();
  if (secondMember) await commands.memberClose(secondMember);
  secondMember = null;
  await page.viewport(1280, 860);
});

/** A second member of the account (a User row of it: the team screens invite them in the product). */
async function addMember(accountId: number, name: string) {
  const response = await fetch(`${inject("controlUrl")}/members`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ accountId, name }),
  });
  if (!response.ok) throw new Error(`control /members failed: ${await response.text()}`);
  return (await response.json()) as { email: string; password: string; userId: number };
}

describe("team inbox: two members at once", () => {
  for (const [label, width, height] of [
    ["desktop", 1280, 860],
    ["phone", 390, 844],
  ] as const) {
    it(`shows one conversation to both; assignment and a note reach the other live; unread is per member (${label})`, {
      timeout: 180_000,
    }, async () => {
      const owner = await createAccount();
      const mate = await addMember(owner.accountId, "Robin Teammate");
      await page.viewport(width, height);
      await signIn(owner, "#/inbox");
      const { viewer } = await graphql<{ viewer: { name: string } }>("{ viewer { name } }");
      const { createAssistant } = await graphql<{ createAssistant: { uuid: string } }>(
        'mutation { createAssistant(input: { name: "Shop helper", type: web }) { uuid } }',
      );
      const { startWidgetConversation } = await graphql<{
        startWidgetConversation: { conversationId: string };
      }>(
        `mutation { startWidgetConversation(input: { assistantUuid: "${createAssistant.uuid}" }) { conversationId } }`,
      );
      const id = startWidgetConversation.conversationId;
      // The visitor writes from this page: its address and browser come with the message.
      await graphql(
        `mutation { sendWidgetMessage(input: { conversationId: "${id}", message: "My parcel never came", pageUrl: ${JSON.stringify(location.href)} }) { reply } }`,
      );

      secondMember = mate.email;
      await commands.memberSignIn({
        apiBase: inject("apiBase"),
        email: mate.email,
        password: mate.password,
        hash: "#/inbox",
        width,
        height,
      });
      // Both see it unread in the navigation and the list.
      await commands.memberSees(mate.email, "Echo: My parcel never came");
      await expect.poll(() => commands.memberTestIdText(mate.email, "unread-count")).toBe("1");
      await expect.element(page.getByTestId("unread-count")).toHaveTextContent("1");

      // The owner opens it: read for the owner only.
      await page.getByRole("navigation", { name: "Conversations" }).getByRole("link").first().click();
      const messages = page.getByRole("log", { name: "Messages" });
      await expect.element(messages).toHaveTextContent("My parcel never came");
      await expect.element(page.getByTestId("unread-count")).not.toBeInTheDocument();
      await expect.element(page.getByText(/^Chrome \d+ on /)).toBeVisible();
      await expect.element(messages.getByText(/Chrome \d+ on /).first()).toBeVisible();
      expect(await commands.memberTestIdText(mate.email, "unread-count")).toBe("1");

      // The teammate opens it too, then watches the owner's moves arrive.
      await commands.memberClick(mate.email, "link", "Echo: My parcel never came");
      await expect.poll(() => commands.memberTestIdText(mate.email, "assignee")).toBe("Unassigned");
      await expect.poll(() => commands.memberTestIdText(mate.email, "unread-count")).toBeNull();

      await page.getByRole("button", { name: "Assign to me" }).click();
      await expect.element(page.getByTestId("assignee")).toHaveTextContent("Assigned to you");
      await expect
        .poll(() => commands.memberTestIdText(mate.email, "assignee"))
        .toBe(`Assigned to ${viewer.name}`);

      await page.getByLabelText("Private note").fill("Refund approved, tell them tomorrow");
      await page.getByRole("button", { name: "Add note" }).click();
      await expect.element(messages).toHaveTextContent("Refund approved, tell them tomorrow");
      await commands.memberSees(mate.email, "Refund approved, tell them tomorrow");
      await commands.memberSees(mate.email, `Private note by ${viewer.name}`);

      // Handed to the teammate from the members list: theirs now, and they see it is.
      await page.getByLabelText("Assign to").selectOptions("Robin Teammate");
      await expect.element(page.getByTestId("assignee")).toHaveTextContent("Assigned to Robin Teammate");
      await expect.poll(() => commands.memberTestIdText(mate.email, "assignee")).toBe("Assigned to you");

      // Resolved by the teammate: the owner's thread says so without a reload.
      await commands.memberClick(mate.email, "button", "Resolve");
      await expect.element(page.getByTestId("status")).toHaveTextContent("Resolved");
      await commands.saveScreenshot(`inbox-team-${label}`);
      await commands.memberScreenshot(mate.email, `inbox-team-member-${label}`);

      // The note never reached the visitor's side.
      const widget = await graphql<{ widgetConversation: { messages: { content: string }[] } }>(
        `{ widgetConversation(id: "${id}") { messages { content } } }`,
      );
      expect(JSON.stringify(widget)).not.toContain("Refund approved");
    });
  }
});
