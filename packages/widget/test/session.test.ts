import { afterEach, describe, expect, inject, it } from "vitest";
import { createAssistant, deleteConversation, removeWidgets } from "./support/widget.ts";

/**
 * A real page reload: a same-origin iframe (so it shares this page's localStorage) embeds the widget
 * exactly as a website would, with the built script from the server, and is then reloaded.
 */
async function embedInFrame(assistant: { uuid: string; apiBase: string }) {
  const frame = document.createElement("iframe");
  frame.style.cssText = "width: 800px; height: 700px; border: 0";
  frame.srcdoc = `<!doctype html><html><body><h1>Shop</h1>
    <script type="module" src="${assistant.apiBase}/widget/voxgate-chat.js"></script>
    <voxgate-chat assistant="${assistant.uuid}" api-base="${assistant.apiBase}"></voxgate-chat></body></html>`;
  const loaded = () => new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
  const firstLoad = loaded();
  document.body.append(frame);
  await firstLoad;
  const widget = () => frame.contentDocument!.querySelector("voxgate-chat")!;
  const shadow = () => widget().shadowRoot;
  return {
    frame,
    widget,
    query: (selector: string) => shadow()?.querySelector<HTMLElement>(selector) ?? null,
    queryAll: (selector: string) => [...(shadow()?.querySelectorAll<HTMLElement>(selector) ?? [])],
    async reload() {
      const next = loaded();
      frame.contentWindow!.location.reload();
      await next;
    },
    async send(text: string) {
      const input = shadow()!.querySelector("textarea")!;
      input.value = text;
      input.dispatchEvent(new InputEvent("input", { bubbles: true, composed: true }));
      await widget().updateComplete;
      shadow()!.querySelector<HTMLButtonElement>("[part~=send-button]")!.click();
    },
  };
}

const texts = (elements: HTMLElement[]) =>
  elements.map((element) => element.querySelector(".content, .user-text")!.textContent!.trim());

afterEach(() => {
  for (const frame of document.querySelectorAll("iframe")) frame.remove();
  removeWidgets();
});

describe("session restore after a page reload", () => {
  it("keeps the conversation: same id, history fetched, panel reopened without stealing focus", async () => {
    const assistant = await createAssistant({ initialMessage: "Welcome back any time." });
    const page = await embedInFrame(assistant);
    await expect.poll(() => page.query("[part~=launcher]")).not.toBeNull();
    page.query("[part~=launcher]")!.click();
    await page.send("My order is 1234");
    await expect
      .poll(() => texts(page.queryAll("[part~=message-assistant]")).at(-1))
      .toBe("Echo: My order is 1234");
    await page.send("It has not arrived");
    await expect
      .poll(() => texts(page.queryAll("[part~=message-assistant]")).at(-1))
      .toBe("Echo: It has not arrived");
    const storageKey = `voxgate-chat:${assistant.apiBase}:${assistant.uuid}`;
    const before = JSON.parse(localStorage.getItem(storageKey)!) as { conversationId: string; open: boolean };
    expect(before.open).toBe(true);

    await page.reload();
    const opened = new Promise<CustomEvent>((resolve) =>
      page.frame.contentDocument!.addEventListener("voxgate-open", (event) => resolve(event as CustomEvent)),
    );
    await expect.poll(() => page.queryAll("[part~=message-user]").length).toBe(2);
    expect(texts(page.queryAll("[part~=message]"))).toEqual([
      "Welcome back any time.",
      "My order is 1234",
      "Echo: My order is 1234",
      "It has not arrived",
      "Echo: It has not arrived",
    ]);
    expect((await opened).detail).toEqual({ byUser: false });
    expect(page.widget().shadowRoot!.activeElement).toBeNull();
    expect(JSON.parse(localStorage.getItem(storageKey)!)).toEqual(before);

    // The restored conversation carries on.
    await page.send("Any news?");
    await expect.poll(() => texts(page.queryAll("[part~=message-assistant]")).at(-1)).toBe("Echo: Any news?");
    expect(JSON.parse(localStorage.getItem(storageKey)!).conversationId).toBe(before.conversationId);
  });

  it("starts afresh, without an error, when the stored conversation was deleted", async () => {
    const assistant = await createAssistant();
    const page = await embedInFrame(assistant);
    await expect.poll(() => page.query("[part~=launcher]")).not.toBeNull();
    page.query("[part~=launcher]")!.click();
    await page.send("Remember me?");
    await expect
      .poll(() => texts(page.queryAll("[part~=message-assistant]")).at(-1))
      .toBe("Echo: Remember me?");
    const storageKey = `voxgate-chat:${assistant.apiBase}:${assistant.uuid}`;
    const { conversationId } = JSON.parse(localStorage.getItem(storageKey)!) as { conversationId: string };
    await deleteConversation(conversationId);

    await page.reload();
    await expect.poll(() => page.query("[part~=panel]")?.hidden).toBe(false);
    await expect.poll(() => JSON.parse(localStorage.getItem(storageKey)!).conversationId).toBeNull();
    expect(page.queryAll("[part~=message-user]")).toHaveLength(0);
    expect(page.query("[part~=error]")).toBeNull();
  });

  it("is scoped per assistant and server", async () => {
    const first = await createAssistant();
    const second = await createAssistant();
    const page = await embedInFrame(first);
    await expect.poll(() => page.query("[part~=launcher]")).not.toBeNull();
    page.query("[part~=launcher]")!.click();
    await page.send("For the first assistant");
    await expect.poll(() => page.queryAll("[part~=message-assistant]").length).toBe(2);
    const other = await embedInFrame(second);
    await expect.poll(() => other.query("[part~=launcher]")).not.toBeNull();
    expect(other.query("[part~=panel]")!.hidden).toBe(true);
    expect(localStorage.getItem(`voxgate-chat:${inject("apiBase")}:${second.uuid}`)).toBeNull();
  });
});
