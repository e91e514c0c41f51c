import { afterEach, describe, expect, inject, it } from "vitest";
import { commands } from "vitest/browser";
import { VoxgateChat } from "../src/voxgate-chat.component.ts";
import { createAssistant, removeWidgets } from "./support/widget.ts";

afterEach(() => {
  for (const frame of document.querySelectorAll("iframe")) frame.remove();
  removeWidgets();
});

/** A page of its own that embeds the built script from the server, recording every page error. */
async function pageWith(html: string) {
  const frame = document.createElement("iframe");
  frame.style.cssText = "width: 800px; height: 700px; border: 0";
  frame.srcdoc = `<!doctype html><html><body>
    <script>window.pageErrors = []; addEventListener("error", (event) => pageErrors.push(event.message));</script>
    ${html}</body></html>`;
  const loaded = new Promise((resolve) => frame.addEventListener("load", resolve, { once: true }));
  document.body.append(frame);
  await loaded;
  return frame.contentWindow! as Window & typeof globalThis & { pageErrors: string[] };
}

describe("the embed script served by the server", () => {
  it("is one self-contained module with a JavaScript content type, importing only its voice chunk, on a call", async () => {
    const response = await fetch(`${inject("apiBase")}/widget/voxgate-chat.js`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const source = await response.text();
    expect(source).not.toMatch(/\bfrom\s*["'`]lit/);
    expect(source).toContain("voxgate-chat");
    // The web call's code loads when a visitor calls, from beside the script.
    const imports = [...source.matchAll(/\bimport\s*\(\s*[`"'](.+?)[`"']/g)].map((match) => match[1]);
    expect(imports).toEqual([expect.stringMatching(/^\.\/voxgate-voice-[\w-]+\.js$/)]);
    const chunk = await fetch(new URL(imports[0]!, `${inject("apiBase")}/widget/voxgate-chat.js`));
    expect(chunk.status).toBe(200);
    expect(chunk.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await chunk.text()).toContain("AudioWorkletNode");
  });

  it("loaded twice, defines the element once, throws nothing and talks to the server it came from", async () => {
    const assistant = await createAssistant({ name: "Twice loaded" });
    const script = `${assistant.apiBase}/widget/voxgate-chat.js`;
    const frame = await pageWith(`
      <script type="module" src="${script}"></script>
      <script type="module" src="${script}?copy=2"></script>
      <voxgate-chat assistant="${assistant.uuid}"></voxgate-chat>`);
    const widget = () => frame.document.querySelector("voxgate-chat")!;
    await expect.poll(() => widget().shadowRoot?.querySelector("[part~=launcher]") ?? null).not.toBeNull();

    const loadedScripts = frame.performance
      .getEntriesByType("resource")
      .map((entry) => entry.name)
      .filter((name) => name.startsWith(script));
    expect(loadedScripts.sort()).toEqual([script, `${script}?copy=2`]);
    expect(frame.pageErrors).toEqual([]);

    widget().shadowRoot!.querySelector<HTMLButtonElement>("[part~=launcher]")!.click();
    await expect
      .poll(() => widget().shadowRoot!.querySelector("[part~=title]")?.textContent)
      .toBe("Twice loaded");
  });

  it("registering the component a second time in the same page is a no-op", async () => {
    const definedBefore = customElements.get("voxgate-chat");
    expect(definedBefore).toBe(VoxgateChat);
    const frame = await pageWith("");
    class SecondCopy extends frame.HTMLElement {}
    frame.customElements.define("voxgate-chat", SecondCopy);
    const assistant = await createAssistant();
    const script = frame.document.createElement("script");
    script.type = "module";
    script.src = `${assistant.apiBase}/widget/voxgate-chat.js`;
    const loaded = new Promise((resolve) => script.addEventListener("load", resolve, { once: true }));
    frame.document.body.append(script);
    await loaded;
    expect(frame.customElements.get("voxgate-chat")).toBe(SecondCopy);
    expect(frame.pageErrors).toEqual([]);
  });
});

describe("the demo page at /widget/demo", () => {
  it("shows the widget on a plain page, answers, and is photographed for the docs", async () => {
    const assistant = await createAssistant({
      name: "Ava from Northwind",
      initialMessage: "Hi! I'm Ava. Ask me about orders, returns or opening hours.",
    });
    const result = await commands.showDemoPage(
      `${assistant.apiBase}/widget/demo?assistant=${assistant.uuid}`,
    );
    expect(result).toEqual({
      launcherLabel: "Open chat",
      dialogTitle: "Ava from Northwind",
      reply: expect.stringContaining("Returns within 30 days"),
      pageErrors: [],
    });
  });
});
