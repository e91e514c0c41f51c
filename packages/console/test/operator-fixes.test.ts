import { afterEach, describe, expect, it } from "vitest";
import { page } from "vitest/browser";
import { createAccount, graphql, signIn, unmountConsole } from "./support/console.ts";

afterEach(() => {
  unmountConsole();
});

describe("what an operator tripped on", () => {
  it("keeps the inbox at the window's width with a long last message: the preview is cut, the columns stay", async () => {
    await page.viewport(1440, 900);
    try {
      await signIn(await createAccount(), "#/inbox");
      const { createAssistant } = await graphql<{ createAssistant: { uuid: string } }>(
        'mutation { createAssistant(input: { name: "Long talker", type: web }) { uuid } }',
      );
      const { startWidgetConversation } = await graphql<{
        startWidgetConversation: { conversationId: string };
      }>(
        `mutation { startWidgetConversation(input: { assistantUuid: "${createAssistant.uuid}" }) { conversationId } }`,
      );
      // Words and one long unbroken link: neither may widen the page.
      const long = `${"My parcel has not arrived and I am getting worried about it. ".repeat(8)}https://shop.example/orders/${"x".repeat(300)}`;
      await graphql(
        `mutation { sendWidgetMessage(input: { conversationId: "${startWidgetConversation.conversationId}", message: "${long}" }) { reply } }`,
      );
      const entry = page.getByRole("navigation", { name: "Conversations" }).getByRole("link");
      await page.getByRole("button", { name: "Refresh" }).click();
      await expect.element(entry).toHaveTextContent("My parcel has not arrived");
      await entry.click();
      await expect.element(page.getByRole("log", { name: "Messages" })).toHaveTextContent("https://shop.example");

      const root = document.documentElement;
      expect(root.scrollWidth).toBeLessThanOrEqual(root.clientWidth);
      // The list and the open conversation side by side, the conversation the wider.
      const list = page.getByRole("navigation", { name: "Conversations" }).element().getBoundingClientRect();
      const thread = page.getByRole("region", { name: "Conversation" }).element().getBoundingClientRect();
      expect(thread.top).toBe(list.top);
      expect(thread.left).toBeGreaterThanOrEqual(list.right);
      expect(thread.width).toBeGreaterThan(list.width);
      expect(thread.right).toBeLessThanOrEqual(root.clientWidth);
    } finally {
      await page.viewport(1280, 860);
    }
  });
});
