/**
 * Hash routes (`#/assistants/3`): the server serves one index.html for /console and needs no
 * fallback for deep links, and a reload keeps the screen.
 */
export interface Route {
  section: string;
  id: string | null;
  /** Further segments, e.g. `leads` in `#/campaigns/4/leads`. */
  rest: string[];
}

export const SECTIONS = [
  "assistants",
  "knowledge",
  "inbox",
  "calls",
  "campaigns",
  "appointments",
  "calendars",
  "numbers",
  "keys",
  "webhooks",
  "billing",
  "admin",
  "tests",
  "team",
  "insights",
] as const;

export function parseRoute(hash: string): Route {
  const [section = "", id = null, ...rest] = hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  return { section: section || "assistants", id: id ? decodeURIComponent(id) : null, rest };
}

export function href(section: string, id?: string | number, ...rest: string[]): string {
  return `#/${[section, ...(id === undefined ? [] : [String(id)]), ...rest].map(encodeURIComponent).join("/")}`;
}

export function navigate(section: string, id?: string | number, ...rest: string[]): void {
  location.hash = href(section, id, ...rest);
}
