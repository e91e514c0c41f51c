import { createRequire } from "node:module";
import { lazyRequire } from "../../../lazy-require.ts";
import { OutboundRequestError, safeFetch } from "../../../net/safe-fetch.ts";
import type { ExtractProgress, Section } from "./extract.ts";
import { IngestionFailure } from "./failure.ts";

// robots-parser is CommonJS with a default-export declaration that ESM typing cannot call.
const robotsParser = createRequire(import.meta.url)("robots-parser") as (
  url: string,
  contents: string,
) => Robots;

export const CRAWLER_USER_AGENT = "VoxgateBot";
const PAGE_TIMEOUT_MS = 15_000;
const PAGE_MAX_BYTES = 5 * 1024 * 1024;
const PAGE_TYPES = ["text/html", "application/xhtml+xml", "text/plain"];

export type WebsiteSource =
  | { kind: "crawl"; url: string; relativeLinksLimit: number }
  | { kind: "links"; links: string[] };

interface Robots {
  isAllowed(url: string, userAgent?: string): boolean | undefined;
}

/**
 * Reads a website: the main URL plus up to `relativeLinksLimit` same-site links found from it
 * (breadth first), or exactly the given links. Every request goes through the SSRF guard and obeys
 * robots.txt. A page that fails is skipped; the document fails only when no page could be read.
 */
export async function readWebsite(
  source: WebsiteSource,
  options: { allowList: readonly string[]; signal: AbortSignal; onProgress: ExtractProgress },
): Promise<Section[]> {
  const html = await loadHtmlTools();
  const robotsByOrigin = new Map<string, Robots>();
  const fetchOptions = {
    allowList: options.allowList,
    maxBytes: PAGE_MAX_BYTES,
    acceptContentTypes: PAGE_TYPES,
    signal: options.signal,
  };

  const robotsFor = async (url: URL): Promise<Robots> => {
    const cached = robotsByOrigin.get(url.origin);
    if (cached) return cached;
    let robots: Robots = { isAllowed: () => true };
    try {
      const response = await safeFetch(`${url.origin}/robots.txt`, {
        ...fetchOptions,
        acceptContentTypes: undefined,
        timeoutMs: PAGE_TIMEOUT_MS,
        maxBytes: 512 * 1024,
      });
      // A missing robots.txt (or a server error) means no rules, as crawlers commonly read it.
      if (response.status === 200) robots = robotsParser(response.url, response.body.toString("utf8"));
    } catch {
      // An unreachable robots.txt leaves the page fetch itself to report the problem.
      options.signal.throwIfAborted();
    }
    robotsByOrigin.set(url.origin, robots);
    return robots;
  };

  const readPage = async (url: URL): Promise<{ section: Section; links: URL[] }> => {
    options.signal.throwIfAborted();
    if ((await robotsFor(url)).isAllowed(url.href, CRAWLER_USER_AGENT) === false) {
      throw new IngestionFailure(`robots.txt of ${url.host} does not allow reading ${url.href}.`);
    }
    let response: Awaited<ReturnType<typeof safeFetch>>;
    try {
      response = await safeFetch(url.href, {
        ...fetchOptions,
        timeoutMs: PAGE_TIMEOUT_MS,
        headers: { "user-agent": `${CRAWLER_USER_AGENT}/1.0`, accept: "text/html, text/plain;q=0.8" },
      });
    } catch (error) {
      if (error instanceof OutboundRequestError) throw new IngestionFailure(describeFetchFailure(url, error));
      throw error;
    }
    if (response.status >= 400) {
      throw new IngestionFailure(`The site answered HTTP ${response.status} for ${url.href}.`);
    }
    const body = response.body.toString("utf8");
    const finalUrl = new URL(response.url);
    if (!(response.headers.get("content-type") ?? "").includes("html")) {
      return { section: { source: finalUrl.href, text: body }, links: [] };
    }
    return readHtml(body, finalUrl, html);
  };

  const sections: Section[] = [];
  const failures: string[] = [];
  const collect = async (url: URL) => {
    try {
      const page = await readPage(url);
      if (page.section.text.trim()) sections.push(page.section);
      return page.links;
    } catch (error) {
      if (!(error instanceof IngestionFailure)) throw error;
      failures.push(error.message);
      return [];
    }
  };

  if (source.kind === "links") {
    const urls = source.links.map((link) => new URL(link));
    for (const [index, url] of urls.entries()) {
      await collect(url);
      await options.onProgress(index + 1, urls.length);
    }
  } else {
    const start = new URL(source.url);
    const seen = new Set([withoutHash(start)]);
    const queue: URL[] = [start];
    let visited = 0;
    let planned = 1;
    while (queue.length > 0) {
      const url = queue.shift()!;
      const links = await collect(url);
      visited++;
      if (visited === 1 && sections.length === 0) break;
      for (const link of links) {
        if (planned > source.relativeLinksLimit) break;
        const key = withoutHash(link);
        if (link.hostname !== start.hostname || seen.has(key)) continue;
        seen.add(key);
        queue.push(new URL(key));
        planned++;
      }
      await options.onProgress(visited, planned);
    }
  }
  if (sections.length === 0) {
    throw new IngestionFailure(failures[0] ?? "No readable text was found on the site.");
  }
  return sections;
}

// CommonJS: through `lazyRequire`, not `import()` (see lazy-require.ts).
const readability = lazyRequire<typeof import("@mozilla/readability")>("@mozilla/readability");

/** The HTML parser and Readability (~10 MB) are loaded by the first website read, not at start. */
async function loadHtmlTools() {
  const { parseHTML } = await import("linkedom");
  return { parseHTML, Readability: readability().Readability };
}

function readHtml(
  html: string,
  url: URL,
  { parseHTML, Readability }: Awaited<ReturnType<typeof loadHtmlTools>>,
): { section: Section; links: URL[] } {
  const { document } = parseHTML(html);
  const links: URL[] = [];
  for (const anchor of document.querySelectorAll("a[href]")) {
    try {
      const link = new URL(anchor.getAttribute("href") ?? "", url);
      if (link.protocol === "http:" || link.protocol === "https:") links.push(link);
    } catch {
      // A malformed href is not a link to follow.
    }
  }
  const title = document.querySelector("title")?.textContent?.trim() ?? "";
  // Readability keeps the main content and drops navigation and footers; short pages fall back to the body.
  const article = new Readability(document as unknown as Document, { charThreshold: 100 }).parse();
  const text = article?.textContent?.trim() || parseHTML(html).document.body?.textContent?.trim() || "";
  const heading = article?.title?.trim() || title;
  return {
    section: {
      source: url.href,
      text: heading && !text.startsWith(heading) ? `${heading}\n\n${text}` : text,
    },
    links,
  };
}

function withoutHash(url: URL): string {
  return url.href.replace(/#.*$/, "");
}

function describeFetchFailure(url: URL, error: OutboundRequestError): string {
  switch (error.reason) {
    case "blocked_address": {
      const refused = error.refused;
      if (refused && refused.url !== url.href) {
        return `${url.href} redirects to ${refused.url}, which is on a private or reserved network address (${refused.address}), which is not allowed.`;
      }
      const address = refused ? ` (${refused.address})` : "";
      return `${url.host} is on a private or reserved network address${address}, which is not allowed.`;
    }
    case "timeout":
      return `The site ${url.host} did not answer in time.`;
    case "too_large":
      return `The page ${url.href} is too large to read.`;
    case "bad_content_type":
      return `The page ${url.href} is not an HTML or text page.`;
    case "too_many_redirects":
      return `The page ${url.href} redirects too many times.`;
    case "invalid_url":
      return `The address ${url.href} cannot be read (${error.message}).`;
    default:
      return `The site ${url.host} could not be reached.`;
  }
}
