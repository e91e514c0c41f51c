import { afterEach, describe, expect, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import { parseInline, parseMarkdown, safeHref } from "../src/markdown.ts";
import { createAssistant, mountWidget, part, parts, removeWidgets } from "./support/widget.ts";

afterEach(() => {
  removeWidgets();
  delete (window as { pwned?: unknown }).pwned;
});

const HOSTILE = [
  `<img src=x onerror="window.pwned = 'img'">`,
  `<script>window.pwned = 'script'</script>`,
  `<a href="javascript:window.pwned='anchor'">html link</a>`,
  `[md link](javascript:window.pwned='markdown')`,
  `[data link](data:text/html,<script>window.pwned='data'</script>)`,
  `<svg onload="window.pwned='svg'"></svg>`,
  `**bold <b>not html</b>** and [a real link](https://example.com/docs?a=1&b=2)`,
].join("\n\n");

describe("Markdown parsing", () => {
  it("reads the subset a chat reply needs", () => {
    expect(
      parseMarkdown(
        "# Hours\n\nWe open at **9** and close at _17_.\nCall `555`.\n\n- Mon\n- Tue\n\n1. first",
      ),
    ).toEqual([
      { type: "heading", children: [{ type: "text", text: "Hours" }] },
      {
        type: "paragraph",
        children: [
          { type: "text", text: "We open at " },
          { type: "strong", children: [{ type: "text", text: "9" }] },
          { type: "text", text: " and close at " },
          { type: "em", children: [{ type: "text", text: "17" }] },
          { type: "text", text: "." },
          { type: "break" },
          { type: "text", text: "Call " },
          { type: "code", text: "555" },
          { type: "text", text: "." },
        ],
      },
      {
        type: "list",
        ordered: false,
        items: [[{ type: "text", text: "Mon" }], [{ type: "text", text: "Tue" }]],
      },
      { type: "list", ordered: true, items: [[{ type: "text", text: "first" }]] },
    ]);
  });

  it("keeps code blocks verbatim and leaves snake_case words alone", () => {
    expect(parseMarkdown("```\n<b>**x**</b>\n```")).toEqual([{ type: "code-block", text: "<b>**x**</b>" }]);
    expect(parseInline("call get_user_name now")).toEqual([{ type: "text", text: "call get_user_name now" }]);
  });

  it("links only absolute http(s) and mailto targets; anything else stays text", () => {
    expect(safeHref("https://example.com/a b")).toBe("https://example.com/a%20b");
    expect(safeHref("mailto:help@example.com")).toBe("mailto:help@example.com");
    for (const hostile of [
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "data:text/html,x",
      "/relative",
      "vbscript:x",
    ]) {
      expect(safeHref(hostile)).toBeNull();
    }
    expect(parseInline("[x](javascript:alert(1))")).toEqual([
      { type: "text", text: "[x](javascript:alert(1))" },
    ]);
    expect(parseInline("see https://example.com/page.")).toEqual([
      { type: "text", text: "see " },
      {
        type: "link",
        href: "https://example.com/page",
        children: [{ type: "text", text: "https://example.com/page" }],
      },
      { type: "text", text: "." },
    ]);
  });
});

describe("hostile content from the server", () => {
  it("a reply full of HTML and script URLs renders as text and runs nothing", async () => {
    const assistant = await createAssistant();
    const widget = mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase });
    await userEvent.click(page.getByRole("button", { name: "Open chat" }));
    await userEvent.fill(page.getByRole("textbox", { name: "Message" }), `say: ${HOSTILE}`);
    await userEvent.click(page.getByRole("button", { name: "Send" }));
    await expect.poll(() => parts(widget, "message-assistant").length).toBe(2);

    const reply = parts(widget, "message-assistant").at(-1)!;
    expect(reply.querySelectorAll("img, script, svg, iframe, [onerror], [onload]")).toHaveLength(0);
    expect(reply.textContent).toContain("<script>window.pwned = 'script'</script>");
    expect(reply.textContent).toContain("[md link](javascript:window.pwned='markdown')");
    const links = [...reply.querySelectorAll("a")];
    expect(links.map((link) => [link.textContent, link.getAttribute("href"), link.rel, link.target])).toEqual(
      [["a real link", "https://example.com/docs?a=1&b=2", "noopener noreferrer nofollow ugc", "_blank"]],
    );
    expect(reply.querySelector("strong")!.textContent).toBe("bold <b>not html</b>");
    // The user's own bubble shows the raw text too, never markup.
    expect(parts(widget, "message-user")[0]!.querySelectorAll("img, script, a")).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((window as { pwned?: unknown }).pwned).toBeUndefined();
  });

  it("a hostile greeting or name from the assistant's settings is text as well", async () => {
    const assistant = await createAssistant({
      name: `<img src=x onerror="window.pwned='name'">`,
      initialMessage: `Hi <img src=x onerror="window.pwned='greeting'"> [x](javascript:window.pwned='g')`,
    });
    const widget = mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase });
    await userEvent.click(page.getByRole("button", { name: "Open chat" }));
    await expect
      .element(page.getByRole("heading", { name: `<img src=x onerror="window.pwned='name'">` }))
      .toBeVisible();
    expect(widget.shadowRoot!.querySelectorAll("img, a")).toHaveLength(0);
    expect(part(widget, "message-assistant")!.textContent).toContain(
      `<img src=x onerror="window.pwned='greeting'">`,
    );
    expect((window as { pwned?: unknown }).pwned).toBeUndefined();
  });

  it("renders the safe subset as real formatting", async () => {
    const assistant = await createAssistant();
    const widget = mountWidget({ assistant: assistant.uuid, "api-base": assistant.apiBase });
    await userEvent.click(page.getByRole("button", { name: "Open chat" }));
    await userEvent.fill(
      page.getByRole("textbox", { name: "Message" }),
      "say: Our plans:\n\n- **Basic**: 5 seats\n- *Pro*: `unlimited`\n\nDetails at https://example.com/pricing.",
    );
    await userEvent.click(page.getByRole("button", { name: "Send" }));
    await expect.poll(() => parts(widget, "message-assistant").length).toBe(2);
    const reply = parts(widget, "message-assistant").at(-1)!;
    expect(
      [...reply.querySelectorAll("li")].map((item) => item.innerHTML.replace(/<!--.*?-->/g, "")),
    ).toEqual(["<strong>Basic</strong>: 5 seats", "<em>Pro</em>: <code>unlimited</code>"]);
    expect(reply.querySelector("a")!.href).toBe("https://example.com/pricing");
  });
});
