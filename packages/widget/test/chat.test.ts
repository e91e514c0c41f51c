import { afterEach, describe, expect, it } from "vitest";
import { commands, page, userEvent } from "vitest/browser";
import {
  createAssistant,
  mountWidget,
  part,
  parts,
  recordEvents,
  removeWidgets,
  storedConversationId,
} from "./support/widget.ts";

afterEach(removeWidgets);

describe("<voxgate-chat> against a real server", () => {
  it("opens from the bubble, sends a message and shows the assistant's reply", async () => {
    const assistant = await createAssistant({ name: "Ada", initialMessage: "Hi, I'm **Ada**." });
    const events = recordEvents("voxgate-open", "voxgate-message-sent", "voxgate-message-received");
    const widget = mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase });

    await userEvent.click(page.getByRole("button", { name: "Open chat" }));
    await expect.element(page.getByRole("dialog", { name: "Ada" })).toBeVisible();
    await expect.element(page.getByRole("log").getByText("Ada", { exact: true })).toBeVisible();
    expect(part(widget, "message-assistant")!.querySelector("strong")!.textContent).toBe("Ada");

    await userEvent.type(page.getByRole("textbox", { name: "Message" }), "What are your opening hours?");
    await userEvent.click(page.getByRole("button", { name: "Send" }));

    await expect.element(page.getByText("Echo: What are your opening hours?")).toBeVisible();
    expect(parts(widget, "message-user").map((bubble) => bubble.textContent?.trim())).toEqual([
      expect.stringContaining("What are your opening hours?"),
    ]);
    await expect.element(page.getByRole("textbox", { name: "Message" })).toHaveValue("");
    expect(events.map((event) => event.type)).toEqual([
      "voxgate-open",
      "voxgate-message-sent",
      "voxgate-message-received",
    ]);
    const [, sent, received] = events;
    expect(sent!.detail).toEqual({
      conversationId: expect.any(String),
      message: "What are your opening hours?",
    });
    expect(received!.detail).toMatchObject({
      conversationId: sent!.detail.conversationId,
      message: "Echo: What are your opening hours?",
    });
    expect(received!.composed && received!.bubbles).toBe(true);

    const history = await fetch(
      `${assistant.apiBase}/api/conversations/${sent!.detail.conversationId}/messages`,
    );
    const body = (await history.json()) as { messages: { role: string; content: string }[] };
    expect(body.messages.filter((message) => message.role !== "system").slice(-2)).toMatchObject([
      { role: "user", content: "What are your opening hours?" },
      { role: "assistant", content: "Echo: What are your opening hours?" },
    ]);
  });

  it("shows a typing indicator while the reply is on its way", async () => {
    const assistant = await createAssistant();
    const widget = mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase });
    await userEvent.click(page.getByRole("button", { name: "Open chat" }));
    await userEvent.type(page.getByRole("textbox", { name: "Message" }), "Take your time (slowly)");
    await userEvent.keyboard("{Enter}");

    await expect.element(page.getByRole("status", { name: "The assistant is typing…" })).toBeVisible();
    expect(part(widget, "send-button")).toHaveProperty("disabled", true);
    await expect.element(page.getByText("Echo: Take your time (slowly)")).toBeVisible();
    expect(part(widget, "typing")).toBeNull();
  });

  it("takes its title, greeting, colour and position from the assistant's widget settings", async () => {
    const assistant = await createAssistant({
      name: "Berta",
      initialMessage: "Welcome to the shop.",
      widgetSettings: { theme: "dark", color: "#ffcc00", position: "bottom-left" },
    });
    const widget = mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase });
    const launcher = page.getByRole("button", { name: "Open chat" });
    await expect.element(launcher).toBeVisible();

    const launcherStyle = getComputedStyle(part(widget, "launcher")!);
    expect(launcherStyle.backgroundColor).toBe("rgb(255, 204, 0)");
    // Yellow is light: the icon turns black to stay readable.
    expect(launcherStyle.color).toBe("rgb(0, 0, 0)");
    const launcherBox = part(widget, "launcher")!.getBoundingClientRect();
    expect(launcherBox.left).toBeLessThan(100);

    await userEvent.click(launcher);
    await expect.element(page.getByRole("dialog", { name: "Berta" })).toBeVisible();
    await expect.element(page.getByText("Welcome to the shop.")).toBeVisible();
    expect(getComputedStyle(part(widget, "panel")!).backgroundColor).toBe("rgb(17, 24, 39)");
  });

  it("lets attributes, page CSS and ::part override the assistant's settings", async () => {
    const assistant = await createAssistant({
      widgetSettings: { theme: "dark", color: "#ffcc00", position: "bottom-left" },
    });
    const style = document.createElement("style");
    style.textContent = `
      voxgate-chat.branded { --voxgate-accent-color: rgb(10, 120, 60); }
      voxgate-chat.branded::part(send-button) { text-transform: uppercase; }`;
    document.head.append(style);
    const widget = mountWidget({
      assistant: assistant.uuid,
      "api-base": assistant.apiBase,
      theme: "light",
      position: "bottom-right",
      "chat-title": "Help desk",
      "initial-message": "Ask me anything.",
      class: "branded",
    });
    await userEvent.click(page.getByRole("button", { name: "Open chat" }));
    await expect.element(page.getByRole("dialog", { name: "Help desk" })).toBeVisible();
    await expect.element(page.getByText("Ask me anything.")).toBeVisible();
    expect(getComputedStyle(part(widget, "panel")!).backgroundColor).toBe("rgb(255, 255, 255)");
    expect(getComputedStyle(part(widget, "launcher")!).backgroundColor).toBe("rgb(10, 120, 60)");
    expect(getComputedStyle(part(widget, "send-button")!).textTransform).toBe("uppercase");
    expect(part(widget, "launcher")!.getBoundingClientRect().right).toBeGreaterThan(window.innerWidth - 100);
    style.remove();
  });

  it("with theme auto, follows the visitor's light or dark system setting", async () => {
    const assistant = await createAssistant();
    const widget = mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase, theme: "auto" });
    await userEvent.click(page.getByRole("button", { name: "Open chat" }));
    try {
      await commands.emulateColorScheme("dark");
      await expect
        .poll(() => getComputedStyle(part(widget, "panel")!).backgroundColor)
        .toBe("rgb(17, 24, 39)");
      await commands.emulateColorScheme("light");
      await expect
        .poll(() => getComputedStyle(part(widget, "panel")!).backgroundColor)
        .toBe("rgb(255, 255, 255)");
    } finally {
      await commands.emulateColorScheme("light");
    }
  });

  it("counts characters and refuses more than 2000 without losing the text", async () => {
    const assistant = await createAssistant();
    const widget = mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase });
    await userEvent.click(page.getByRole("button", { name: "Open chat" }));
    const input = page.getByRole("textbox", { name: "Message" });
    await userEvent.fill(input, "x".repeat(2000));
    await expect.element(page.getByText("2000 / 2000")).toBeVisible();
    await expect.element(page.getByRole("button", { name: "Send" })).toBeEnabled();

    await userEvent.type(input, "yz");
    await expect.element(page.getByText("2002 / 2000")).toBeVisible();
    await expect.element(page.getByText("Your message is 2 characters too long.")).toBeVisible();
    await expect.element(page.getByRole("button", { name: "Send" })).toBeDisabled();
    await expect.element(input).toHaveAttribute("aria-invalid", "true");
    await userEvent.keyboard("{Enter}");
    expect(parts(widget, "message-user")).toHaveLength(0);
    expect((part(widget, "input") as HTMLTextAreaElement).value).toHaveLength(2002);
  });

  it("works from the keyboard: focus moves into the panel, Escape closes and returns focus", async () => {
    const assistant = await createAssistant();
    const events = recordEvents("voxgate-open", "voxgate-close");
    const widget = mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase });
    const launcher = page.getByRole("button", { name: "Open chat" });
    await expect.element(launcher).toBeVisible();
    part(widget, "launcher")!.focus();
    await userEvent.keyboard("{Enter}");

    await expect.element(page.getByRole("dialog")).toBeVisible();
    expect(widget.shadowRoot!.activeElement).toBe(part(widget, "input"));
    await expect
      .element(page.getByRole("button", { name: "Close chat" }))
      .toHaveAttribute("aria-expanded", "true");
    await userEvent.keyboard("Hello from the keyboard{Enter}");
    await expect.element(page.getByText("Echo: Hello from the keyboard")).toBeVisible();
    await userEvent.keyboard("line one{Shift>}{Enter}{/Shift}line two");
    expect((part(widget, "input") as HTMLTextAreaElement).value).toBe("line one\nline two");

    await userEvent.keyboard("{Escape}");
    await expect.element(page.getByRole("dialog")).not.toBeInTheDocument();
    expect(widget.shadowRoot!.activeElement).toBe(part(widget, "launcher"));
    expect(part(widget, "launcher")!.getAttribute("aria-expanded")).toBe("false");
    expect(events.map((event) => [event.type, event.detail.byUser])).toEqual([
      ["voxgate-open", true],
      ["voxgate-close", true],
    ]);
    expect(widget.open).toBe(false);
    // The draft survives closing.
    await userEvent.click(page.getByRole("button", { name: "Open chat" }));
    await expect.element(page.getByRole("textbox", { name: "Message" })).toHaveValue("line one\nline two");
  });

  it("keeps the keyboard contract: show() and hide() move focus, the close button returns it, Escape stays inside", async () => {
    const assistant = await createAssistant();
    const events = recordEvents("voxgate-open", "voxgate-close");
    const pageEscapes: KeyboardEvent[] = [];
    const onPageKeydown = (event: KeyboardEvent) => {
      if (event.key === "Escape") pageEscapes.push(event);
    };
    document.addEventListener("keydown", onPageKeydown);
    try {
      const widget = mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase });
      await expect.element(page.getByRole("button", { name: "Open chat" })).toBeVisible();

      widget.show();
      await expect.element(page.getByRole("dialog")).toBeVisible();
      expect(widget.shadowRoot!.activeElement).toBe(part(widget, "input"));
      // A page's own Escape handler (its modal, say) must not also fire for the widget's Escape.
      await userEvent.keyboard("{Escape}");
      await expect.element(page.getByRole("dialog")).not.toBeInTheDocument();
      expect(widget.shadowRoot!.activeElement).toBe(part(widget, "launcher"));
      expect(pageEscapes).toHaveLength(0);

      await userEvent.click(page.getByRole("button", { name: "Open chat" }));
      await expect.element(page.getByRole("dialog")).toBeVisible();
      await userEvent.click(page.getByRole("button", { name: "Close", exact: true }));
      await expect.element(page.getByRole("dialog")).not.toBeInTheDocument();
      expect(widget.shadowRoot!.activeElement).toBe(part(widget, "launcher"));

      widget.show();
      await expect.element(page.getByRole("dialog")).toBeVisible();
      // Enter that confirms an IME composition (a Japanese word, say) neither sends nor is swallowed.
      await userEvent.keyboard("konnichiwa");
      const composing = new KeyboardEvent("keydown", {
        key: "Enter",
        isComposing: true,
        bubbles: true,
        composed: true,
        cancelable: true,
      });
      part(widget, "input")!.dispatchEvent(composing);
      await widget.updateComplete;
      expect(composing.defaultPrevented).toBe(false);
      expect(parts(widget, "message-user")).toHaveLength(0);
      expect((part(widget, "input") as HTMLTextAreaElement).value).toBe("konnichiwa");

      widget.hide();
      await expect.element(page.getByRole("dialog")).not.toBeInTheDocument();
      expect(widget.shadowRoot!.activeElement).toBe(part(widget, "launcher"));
      expect(events.map((event) => [event.type, event.detail.byUser])).toEqual([
        ["voxgate-open", true],
        ["voxgate-close", true],
        ["voxgate-open", true],
        ["voxgate-close", true],
        ["voxgate-open", true],
        ["voxgate-close", true],
      ]);
    } finally {
      document.removeEventListener("keydown", onPageKeydown);
    }
  });

  it("keeps the newest message in view, also when the panel is opened again", async () => {
    const assistant = await createAssistant();
    const widget = mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase });
    await userEvent.click(page.getByRole("button", { name: "Open chat" }));
    const lines = Array.from({ length: 40 }, (_, index) => `Line ${index + 1}`).join("\n");
    await userEvent.fill(page.getByRole("textbox", { name: "Message" }), lines);
    await userEvent.click(page.getByRole("button", { name: "Send" }));
    await expect.element(page.getByText("Echo: Line 1")).toBeVisible();

    const log = part(widget, "messages")!;
    const atEnd = () => log.scrollHeight - log.clientHeight - log.scrollTop <= 1;
    // Only meaningful if the log really overflows.
    expect(log.scrollHeight).toBeGreaterThan(log.clientHeight * 2);
    expect(atEnd()).toBe(true);

    log.scrollTop = 0;
    await userEvent.click(page.getByRole("button", { name: "Close chat" }));
    await expect.element(page.getByRole("dialog")).not.toBeInTheDocument();
    await userEvent.click(page.getByRole("button", { name: "Open chat" }));
    await expect.element(page.getByRole("dialog")).toBeVisible();
    await widget.updateComplete;
    expect(atEnd()).toBe(true);
  });

  it("announces new messages through a polite live log", async () => {
    const assistant = await createAssistant();
    const widget = mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase });
    await userEvent.click(page.getByRole("button", { name: "Open chat" }));
    const log = part(widget, "messages")!;
    expect(log.getAttribute("role")).toBe("log");
    expect(log.getAttribute("aria-live")).toBe("polite");
    await userEvent.keyboard("Ping{Enter}");
    await expect.element(page.getByText("Echo: Ping")).toBeVisible();
    const reply = parts(widget, "message-assistant").at(-1)!;
    expect(log.contains(reply)).toBe(true);
    expect(reply.textContent).toContain("Assistant said:");
  });

  it("fills the screen on a phone", async () => {
    await page.viewport(375, 667);
    try {
      const assistant = await createAssistant();
      const widget = mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase });
      await userEvent.click(page.getByRole("button", { name: "Open chat" }));
      await expect.element(page.getByRole("dialog")).toBeVisible();
      const panel = part(widget, "panel")!.getBoundingClientRect();
      expect([panel.left, panel.top, panel.width, panel.height]).toEqual([0, 0, 375, 667]);
      expect(getComputedStyle(part(widget, "launcher")!).display).toBe("none");
      await userEvent.click(page.getByRole("button", { name: "Close", exact: true }));
      await expect.element(page.getByRole("button", { name: "Open chat" })).toBeVisible();
    } finally {
      await page.viewport(1280, 800);
    }
  });

  it("speaks the page's language when given translated strings", async () => {
    const assistant = await createAssistant({ initialMessage: "" });
    mountWidget({
      assistant: assistant.uuid,
      "api-base": assistant.apiBase,
      strings: JSON.stringify({
        openChat: "Chat öffnen",
        inputLabel: "Nachricht",
        sendButton: "Senden",
        counter: "{count} von {max}",
      }),
    });
    await userEvent.click(page.getByRole("button", { name: "Chat öffnen" }));
    await userEvent.type(page.getByRole("textbox", { name: "Nachricht" }), "Hallo");
    await expect.element(page.getByText("5 von 2000")).toBeVisible();
    await userEvent.click(page.getByRole("button", { name: "Senden" }));
    await expect.element(page.getByText("Echo: Hallo")).toBeVisible();
  });
});

describe("<voxgate-chat> and the business's operators", () => {
  it("shows an operator's reply sent over GraphQL while the visitor waits, styled as a person", async () => {
    const assistant = await createAssistant({ name: "Ada" });
    const widget = mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase });
    await userEvent.click(page.getByRole("button", { name: "Open chat" }));
    await userEvent.type(page.getByRole("textbox", { name: "Message" }), "Can a person help me?");
    await userEvent.click(page.getByRole("button", { name: "Send" }));
    await expect.element(page.getByText("Echo: Can a person help me?")).toBeVisible();
    const conversationId = storedConversationId(widget)!;

    const sent = await fetch(`${assistant.apiBase}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${assistant.apiKey}` },
      body: JSON.stringify({
        query: `mutation($id: ID!) { sendOperatorMessage(input: { conversationId: $id, content: "Hi, Jane from support here." }) { id } }`,
        variables: { id: conversationId },
      }),
    });
    expect(((await sent.json()) as { errors?: unknown }).errors).toBeUndefined();

    await expect.element(page.getByText("Hi, Jane from support here.")).toBeVisible();
    expect(parts(widget, "message-operator").map((bubble) => bubble.textContent)).toEqual([
      expect.stringContaining("Hi, Jane from support here."),
    ]);
    expect(parts(widget, "message-assistant").map((bubble) => bubble.textContent)).not.toContainEqual(
      expect.stringContaining("Jane"),
    );
  });
});
