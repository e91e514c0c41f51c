import { html, nothing, type TemplateResult } from "lit";

/**
 * A small Markdown subset for chat replies, parsed into a tree and rendered with Lit text and
 * attribute bindings only. Replies come from a model that may repeat hostile input, so nothing here
 * ever becomes markup: raw HTML stays text, and links keep only http(s) and mailto targets.
 */

export type Inline =
  | { type: "text"; text: string }
  | { type: "code"; text: string }
  | { type: "strong"; children: Inline[] }
  | { type: "em"; children: Inline[] }
  | { type: "link"; href: string; children: Inline[] }
  | { type: "break" };

export type Block =
  | { type: "paragraph"; children: Inline[] }
  | { type: "heading"; children: Inline[] }
  | { type: "code-block"; text: string }
  | { type: "list"; ordered: boolean; items: Inline[][] }
  | { type: "quote"; children: Inline[] };

const FENCE = /^\s*```/;
const HEADING = /^\s{0,3}#{1,6}\s+(.*)$/;
const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,9}[.)]\s+(.*)$/;
const QUOTE = /^\s*>\s?(.*)$/;

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, "\n").split("\n");
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  const flushParagraph = () => {
    if (paragraph.length > 0) blocks.push({ type: "paragraph", children: parseInline(paragraph.join("\n")) });
    paragraph = [];
  };

  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    if (FENCE.test(line)) {
      flushParagraph();
      const code: string[] = [];
      index++;
      while (index < lines.length && !FENCE.test(lines[index]!)) code.push(lines[index++]!);
      blocks.push({ type: "code-block", text: code.join("\n") });
      continue;
    }
    if (line.trim() === "") {
      flushParagraph();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flushParagraph();
      blocks.push({ type: "heading", children: parseInline(heading[1]!) });
      continue;
    }
    const listPattern = BULLET.test(line) ? BULLET : NUMBERED.test(line) ? NUMBERED : null;
    if (listPattern) {
      flushParagraph();
      const items: Inline[][] = [];
      while (index < lines.length && listPattern.test(lines[index]!)) {
        items.push(parseInline(listPattern.exec(lines[index]!)![1]!));
        index++;
      }
      index--;
      blocks.push({ type: "list", ordered: listPattern === NUMBERED, items });
      continue;
    }
    const quote = QUOTE.exec(line);
    if (quote) {
      flushParagraph();
      const quoted: string[] = [];
      while (index < lines.length && QUOTE.test(lines[index]!)) quoted.push(QUOTE.exec(lines[index++]!)![1]!);
      index--;
      blocks.push({ type: "quote", children: parseInline(quoted.join("\n")) });
      continue;
    }
    paragraph.push(line);
  }
  flushParagraph();
  return blocks;
}

/** Alternatives in priority order; each names its groups so the parser knows which one matched. */
const INLINE =
  /(?<code>`+)(?<codeText>[^`]|[^`][\s\S]*?[^`])\k<code>(?!`)|\[(?<linkText>[^\]\n]+)\]\(\s*(?<linkHref>[^\s()]+)\s*\)|\*\*(?<strong>\S[\s\S]*?)\*\*|__(?<strongUnderscore>\S[\s\S]*?)__|\*(?<em>[^*\s](?:[^*]*[^*\s])?)\*|(?<![\p{L}\p{N}])_(?<emUnderscore>[^_\s](?:[^_]*[^_\s])?)_(?![\p{L}\p{N}])|(?<url>https?:\/\/[^\s<>]*[^\s<>.,:;"'!?)\]])/gu;

export function parseInline(source: string, allowLinks = true): Inline[] {
  const nodes: Inline[] = [];
  const pushText = (text: string) => {
    const parts = text.split("\n");
    parts.forEach((part, position) => {
      if (position > 0) nodes.push({ type: "break" });
      if (part) nodes.push({ type: "text", text: part });
    });
  };
  let last = 0;
  for (const match of source.matchAll(INLINE)) {
    const groups = match.groups!;
    const start = match.index;
    let node: Inline | null = null;
    if (groups.codeText !== undefined) {
      node = { type: "code", text: groups.codeText };
    } else if (groups.linkText !== undefined) {
      const href = safeHref(groups.linkHref!);
      if (href && allowLinks) node = { type: "link", href, children: parseInline(groups.linkText, false) };
    } else if (groups.strong !== undefined || groups.strongUnderscore !== undefined) {
      node = { type: "strong", children: parseInline(groups.strong ?? groups.strongUnderscore!, allowLinks) };
    } else if (groups.em !== undefined || groups.emUnderscore !== undefined) {
      node = { type: "em", children: parseInline(groups.em ?? groups.emUnderscore!, allowLinks) };
    } else if (groups.url !== undefined && allowLinks) {
      const href = safeHref(groups.url);
      if (href) node = { type: "link", href, children: [{ type: "text", text: groups.url }] };
    }
    if (!node) continue;
    pushText(source.slice(last, start));
    nodes.push(node);
    last = start + match[0].length;
  }
  pushText(source.slice(last));
  return nodes;
}

const SAFE_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

/** An absolute http(s) or mailto URL, normalised; anything else (javascript:, data:, relative) is refused. */
export function safeHref(candidate: string): string | null {
  if (!URL.canParse(candidate)) return null;
  const url = new URL(candidate);
  return SAFE_PROTOCOLS.has(url.protocol) ? url.href : null;
}

function renderInline(nodes: Inline[]): unknown[] {
  return nodes.map(renderInlineNode);
}

function renderInlineNode(node: Inline): unknown {
  switch (node.type) {
    case "text":
      return node.text;
    case "break":
      return html`<br />`;
    case "code":
      return html`<code>${node.text}</code>`;
    case "strong":
      return html`<strong>${renderInline(node.children)}</strong>`;
    case "em":
      return html`<em>${renderInline(node.children)}</em>`;
    case "link":
      return html`<a href=${node.href} target="_blank" rel="noopener noreferrer nofollow ugc"
          >${renderInline(node.children)}</a
        >`;
  }
}

function renderBlock(block: Block): TemplateResult {
  switch (block.type) {
    case "paragraph":
      return html`<p>${renderInline(block.children)}</p>`;
    case "heading":
      return html`<p class="heading"><strong>${renderInline(block.children)}</strong></p>`;
    case "code-block":
      return html`<pre><code>${block.text}</code></pre>`;
    case "quote":
      return html`<blockquote>${renderInline(block.children)}</blockquote>`;
    case "list": {
      const items = block.items.map((item) => html`<li>${renderInline(item)}</li>`);
      return block.ordered ? html`<ol>${items}</ol>` : html`<ul>${items}</ul>`;
    }
  }
}

export function renderMarkdown(source: string): TemplateResult | typeof nothing {
  const blocks = parseMarkdown(source);
  return blocks.length === 0 ? nothing : html`${blocks.map(renderBlock)}`;
}
