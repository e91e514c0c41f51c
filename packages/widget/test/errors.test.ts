import { afterEach, describe, expect, inject, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import {
  createAssistant,
  deleteConversation,
  mountWidget,
  nextEvent,
  part,
  parts,
  recordEvents,
  removeWidgets,
  setBalance,
  setNetwork,
  storedConversationId,
} from "./support/widget.ts";

afterEach(async () => {
  removeWidgets();
  await setNetwork(true);
});

async function openAndSend(message: string) {
  await userEvent.click(page.getByRole("button", { name: "Open chat" }));
  await userEvent.type(page.getByRole("textbox", { name: "Message" }), message);
  await userEvent.keyboard("{Enter}");
}

describe("error states, each caused for real and each recoverable", () => {
  it("insufficient balance: a kind notice, the message kept, and a retry once the owner tops up", async () => {
    const assistant = await createAssistant({ balance: "10" });
    await setBalance(assistant, "0");
    const errors = recordEvents("voxgate-error");
    const widget = mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase });
    await openAndSend("Can I book a table?");

    await expect
      .element(page.getByRole("alert"))
      .toHaveTextContent("The assistant can't answer right now. Please try again later.");
    expect(errors.map((event) => event.detail)).toEqual([
      {
        kind: "insufficient-balance",
        status: 402,
        message: "Insufficient balance. Please top up your account.",
      },
    ]);
    // The visitor never sees the owner's billing text.
    expect(part(widget, "messages")!.textContent).not.toContain("top up");
    await expect.element(page.getByText("Not sent")).toBeVisible();
    expect(parts(widget, "message-user")[0]!.dataset.state).toBe("failed");

    await setBalance(assistant, "10");
    await userEvent.click(page.getByRole("button", { name: "Try again" }));
    await expect.element(page.getByText("Echo: Can I book a table?")).toBeVisible();
    expect(part(widget, "error")).toBeNull();
    expect(parts(widget, "message-user").map((bubble) => bubble.dataset.state)).toEqual(["sent"]);
  });

  it("rate limited: says to wait and counts down from Retry-After before allowing a retry", async () => {
    const assistant = await createAssistant({ server: "strict" });
    const errors = recordEvents("voxgate-error");
    const widget = mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase });
    await openAndSend("one");
    await expect.element(page.getByText("Echo: one")).toBeVisible();
    await userEvent.keyboard("two{Enter}");
    await expect.element(page.getByText("Echo: two")).toBeVisible();
    await userEvent.keyboard("three{Enter}");

    await expect
      .element(page.getByRole("alert"))
      .toHaveTextContent("You're sending messages faster than we can answer. Please wait a moment.");
    const retry = page.getByRole("button", { name: /^Try again in \d+ s$/ });
    await expect.element(retry).toBeDisabled();
    const seconds = Number(/(\d+) s/.exec(part(widget, "retry-button")!.textContent!)![1]);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(60);
    expect(errors.at(-1)!.detail).toMatchObject({ kind: "rate-limited", status: 429 });
    expect(parts(widget, "message-user").map((bubble) => bubble.dataset.state)).toEqual([
      "sent",
      "sent",
      "failed",
    ]);
  });

  it("network down while chatting: the message waits and goes out on retry once the network is back", async () => {
    const assistant = await createAssistant();
    const apiBase = inject("flakyApiBase");
    const widget = mountWidget({ assistant: assistant.uuid, "api-base": apiBase });
    await openAndSend("First message");
    await expect.element(page.getByText("Echo: First message")).toBeVisible();

    await setNetwork(false);
    const error = nextEvent<CustomEvent>(widget, "voxgate-error");
    await userEvent.keyboard("Are you there?{Enter}");
    await expect
      .element(page.getByRole("alert"))
      .toHaveTextContent("We can't reach the chat service. Check your connection and try again.");
    expect((await error).detail).toMatchObject({ kind: "network", status: 0 });
    await expect.element(page.getByText("Not sent")).toBeVisible();

    await setNetwork(true);
    await userEvent.click(page.getByRole("button", { name: "Try again" }));
    await expect.element(page.getByText("Echo: Are you there?")).toBeVisible();
    expect(part(widget, "error")).toBeNull();
  });

  it("network down on page load: the bubble still shows and the panel offers a retry", async () => {
    const assistant = await createAssistant({ name: "Reachable later" });
    const errors = recordEvents("voxgate-error");
    await setNetwork(false);
    mountWidget({ assistant: assistant.uuid, "api-base": inject("flakyApiBase") });
    await userEvent.click(page.getByRole("button", { name: "Open chat" }));
    await expect.element(page.getByRole("alert")).toHaveTextContent("We can't reach the chat service.");
    expect(errors[0]!.detail).toMatchObject({ kind: "network", status: 0 });

    await setNetwork(true);
    await userEvent.click(page.getByRole("button", { name: "Try again" }));
    await expect.element(page.getByRole("dialog", { name: "Reachable later" })).toBeVisible();
    await expect.element(page.getByRole("alert")).not.toBeInTheDocument();
  });

  it("a server that was never there: closed port, same notice", async () => {
    const assistant = await createAssistant();
    mountWidget({ assistant: assistant.uuid, "api-base": inject("closedApiBase") });
    await userEvent.click(page.getByRole("button", { name: "Open chat" }));
    await expect.element(page.getByRole("alert")).toHaveTextContent("We can't reach the chat service.");
  });

  it("conversation gone: offers a new conversation and sends the kept message there", async () => {
    const assistant = await createAssistant();
    const widget = mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase });
    await openAndSend("Hello");
    await expect.element(page.getByText("Echo: Hello")).toBeVisible();
    const firstConversation = storedConversationId(widget)!;
    expect(await deleteConversation(firstConversation)).toEqual({ deleted: 1 });

    await userEvent.keyboard("Still there?{Enter}");
    await expect.element(page.getByRole("alert")).toHaveTextContent("This conversation has ended.");
    expect(storedConversationId(widget)).toBeNull();
    await userEvent.click(page.getByRole("button", { name: "Start a new conversation" }));
    await expect.element(page.getByText("Echo: Still there?")).toBeVisible();
    const secondConversation = storedConversationId(widget);
    expect(secondConversation).toMatch(/^[0-9a-f-]{36}$/);
    expect(secondConversation).not.toBe(firstConversation);
    const history = await fetch(`${assistant.apiBase}/api/conversations/${secondConversation}/messages`);
    const body = (await history.json()) as { messages: { role: string; content: string }[] };
    expect(
      body.messages.filter((message) => message.role === "user").map((message) => message.content),
    ).toEqual(["Still there?"]);
  });

  it("the model fails: a server notice, and the retry gets the answer", async () => {
    const assistant = await createAssistant();
    const errors = recordEvents("voxgate-error");
    const widget = mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase });
    await openAndSend("Hello (model fails once)");
    await expect
      .element(page.getByRole("alert"))
      .toHaveTextContent("Something went wrong on our side. Please try again.");
    expect(errors[0]!.detail).toMatchObject({
      kind: "server",
      status: 502,
      message: expect.stringMatching(/^Failed to process message/),
    });
    await userEvent.click(page.getByRole("button", { name: "Try again" }));
    await expect.element(page.getByText("Echo: Hello (model fails once)")).toBeVisible();
    expect(parts(widget, "message-user").map((bubble) => bubble.dataset.state)).toEqual(["sent"]);
  });

  it("an origin the assistant does not allow: explained, nothing to retry, sending disabled", async () => {
    const assistant = await createAssistant({ allowedOrigins: ["https://shop.example"] });
    const errors = recordEvents("voxgate-error");
    const widget = mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase });
    await openAndSend("Hi");
    await expect
      .element(page.getByRole("alert"))
      .toHaveTextContent("This chat isn't available on this website.");
    expect(errors[0]!.detail).toMatchObject({ kind: "origin-not-allowed", status: 403 });
    expect(part(widget, "retry-button")).toBeNull();
    await userEvent.type(page.getByRole("textbox", { name: "Message" }), "again");
    await expect.element(page.getByRole("button", { name: "Send" })).toBeDisabled();
  });

  it("an unknown assistant leaves no dead bubble on the page and reports why", async () => {
    const error = nextEvent<CustomEvent>(document, "voxgate-error");
    const widget = mountWidget({
      assistant: "00000000-0000-4000-8000-000000000000",
      "api-base": inject("apiBase"),
    });
    expect((await error).detail).toEqual({
      kind: "assistant-not-found",
      status: 404,
      message: "Assistant not found.",
    });
    await widget.updateComplete;
    expect(widget.shadowRoot!.querySelector("button")).toBeNull();
  });
});
