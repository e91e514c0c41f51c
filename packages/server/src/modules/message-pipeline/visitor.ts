/** What is known of the visitor a customer message came from (widget); each part null when not known. */
export interface VisitorDetails {
  /** The page the widget was on, when it is a page of the origin the request came from. */
  pageUrl: string | null;
  /** The user agent summarised ("Chrome 131 on macOS"); the raw string is not kept. */
  browser: string | null;
  /** ISO 3166 alpha-2, from the header a trusted proxy sets (VOXGATE_VISITOR_COUNTRY_HEADER). */
  country: string | null;
}

export const NO_VISITOR: VisitorDetails = { pageUrl: null, browser: null, country: null };

const PAGE_URL_MAX = 2048;

/**
 * The visitor details of a widget request. The page URL is the widget's own report, so it is kept
 * only when it is a page of the request's origin (a page cannot name another site's pages); the
 * country only when the operator named the header their proxy sets, which the proxy overwrites.
 */
export function visitorDetails(source: {
  pageUrl: string | null | undefined;
  origin: string | null;
  userAgent: string | null;
  countryHeaderValue: string | null;
}): VisitorDetails {
  return {
    pageUrl: pageOf(source.pageUrl, source.origin),
    browser: source.userAgent ? summariseUserAgent(source.userAgent) : null,
    country: countryOf(source.countryHeaderValue),
  };
}

function pageOf(pageUrl: string | null | undefined, origin: string | null): string | null {
  if (!pageUrl || pageUrl.length > PAGE_URL_MAX || !URL.canParse(pageUrl)) return null;
  const url = new URL(pageUrl);
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (origin === null || url.origin !== origin) return null;
  url.username = "";
  url.password = "";
  return url.toString();
}

function countryOf(value: string | null): string | null {
  const code = value?.trim().toUpperCase() ?? "";
  // Cloudflare's "unknown" (XX) and "Tor" (T1) are not countries.
  if (!/^[A-Z]{2}$/.test(code) || code === "XX" || code === "T1") return null;
  return code;
}

const BROWSERS: [name: string, pattern: RegExp][] = [
  ["Edge", /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ["Opera", /\b(?:OPR|Opera)\/(\d+)/],
  ["Samsung Internet", /\bSamsungBrowser\/(\d+)/],
  ["Firefox", /\b(?:Firefox|FxiOS)\/(\d+)/],
  ["Chrome", /(?:\b|Headless)(?:Chrome|CriOS)\/(\d+)/],
  ["Safari", /\bVersion\/(\d+)[^ ]* (?:Mobile\/\S+ )?Safari\//],
];

const SYSTEMS: [name: string, pattern: RegExp][] = [
  ["Windows", /\bWindows\b/],
  ["Android", /\bAndroid\b/],
  ["iOS", /\b(?:iPhone|iPad|iPod)\b/],
  ["ChromeOS", /\bCrOS\b/],
  ["macOS", /\bMac OS X\b/],
  ["Linux", /\bLinux\b/],
];

/** "Chrome 131 on macOS", "Firefox 133", "Other browser on Linux"; null for an empty string. */
export function summariseUserAgent(userAgent: string): string | null {
  const agent = userAgent.slice(0, 512);
  if (agent.trim() === "") return null;
  const browser = BROWSERS.find(([, pattern]) => pattern.test(agent));
  const system = SYSTEMS.find(([, pattern]) => pattern.test(agent))?.[0];
  const name = browser ? `${browser[0]} ${agent.match(browser[1])?.[1]}` : "Other browser";
  return (system ? `${name} on ${system}` : name).slice(0, 100);
}
