import { afterEach, describe, expect, inject, it } from "vitest";
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
      await expect
        .element(page.getByRole("log", { name: "Messages" }))
        .toHaveTextContent("https://shop.example");

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

  it("gives an assistant made in the console the same settings as one made through the API, and shows them before saving", async () => {
    await signIn(await createAccount(), "#/assistants/new");
    await expect.element(page.getByRole("heading", { name: "New assistant" })).toBeVisible();
    // The form shows what the server will give, before anything is saved.
    await expect.element(page.getByLabelText("Allow interruptions")).toBeChecked();
    await expect.element(page.getByLabelText("Handles")).toHaveValue("inbound");
    await expect.element(page.getByLabelText("Speech speed")).toHaveValue("1.00");
    await expect.element(page.getByLabelText("Voice stability")).toHaveValue("0.50");
    await expect.element(page.getByLabelText("Maximum duration (seconds)")).toHaveValue(600);
    await page.getByLabelText("Name", { exact: true }).fill("Made in the console");
    await page.getByRole("button", { name: "Create assistant" }).click();
    await expect.element(page.getByRole("heading", { name: "Made in the console" })).toBeVisible();

    const settings = `type status mode knowledgebaseMode initialMessage systemPrompt timezone llmTemperature
      speechSpeed voiceStability voiceSimilarity ambientSound ambientSoundVolume enableNoiseCancellation maxDuration
      maxSilenceDuration waitForCustomer allowInterruptions interruptSensitivity minInterruptWords endpointType
      endpointSensitivity reengagementInterval endCallOnVoicemail record tools variables postCallEvaluation
      postCallSchema isWebhookActive sendWebhookOnlyOnCompleted includeRecordingInWebhook widgetSettings allowedOrigins`;
    const { assistants } = await graphql<{ assistants: { items: Record<string, unknown>[] } }>(
      `{ assistants { items { ${settings} } } }`,
    );
    const { createAssistant } = await graphql<{ createAssistant: Record<string, unknown> }>(
      `mutation { createAssistant(input: { name: "Made through the API" }) { ${settings} } }`,
    );
    expect(assistants.items[0]).toEqual(createAssistant);
  });

  it("refuses a test call at once, with the reason, when the speech service cannot be reached: nothing charged", async () => {
    const deafApiBase = inject("deafApiBase");
    await signIn(await createAccount({ server: "deaf" }), "#/assistants", deafApiBase);
    const { createAssistant } = await graphql<{ createAssistant: { id: number } }>(
      'mutation { createAssistant(input: { name: "Deaf desk", type: web, widgetSettings: { voice: true } }) { id } }',
      deafApiBase,
    );
    location.hash = `#/assistants/${createAssistant.id}`;
    await page.getByRole("button", { name: "Test call", exact: true }).click();
    const state = page.getByTestId("test-call-state");
    await expect
      .element(state)
      .toHaveTextContent(
        "Call: not started. The call cannot start: speech-to-text (the speech service) cannot be reached. Nothing was charged.",
      );
    await expect.element(state).not.toHaveTextContent("live, speak now");
    const { calls, ledgerEntries } = await graphql<{
      calls: { pageInfo: { total: number } };
      ledgerEntries: { items: { kind: string; callId: number | null }[] };
    }>("{ calls { pageInfo { total } } ledgerEntries { items { kind callId } } }", deafApiBase);
    expect(calls.pageInfo.total).toBe(0);
    // Only the opening balance: no call minute reserved or charged.
    expect(ledgerEntries.items.every((entry) => entry.callId === null)).toBe(true);
    expect(ledgerEntries.items).toHaveLength(1);
  });
});
