/** What the GraphQL list fields return beside their items. */
export interface PageInfo {
  total: number;
  currentPage: number;
  perPage: number;
  lastPage: number;
}

export interface PageLink {
  url: string | null;
  label: string;
  active: boolean;
}

export interface PaginationEnvelope<Item> {
  current_page: number;
  data: Item[];
  first_page_url: string;
  from: number | null;
  last_page: number;
  last_page_url: string;
  links: PageLink[];
  next_page_url: string | null;
  path: string;
  per_page: number;
  prev_page_url: string | null;
  to: number | null;
  total: number;
}

/**
 * Builds the legacy pagination envelope. `path` is the absolute URL of the list endpoint (public
 * base URL + path, no query). Page URLs keep the caller's other query parameters (filters,
 * `per_page`), so following `next_page_url` walks the same filtered list; `page` comes last.
 */
export function paginationEnvelope<Item>(options: {
  data: Item[];
  pageInfo: PageInfo;
  path: string;
  query?: URLSearchParams;
}): PaginationEnvelope<Item> {
  const { data, pageInfo, path } = options;
  const { currentPage, perPage, total, lastPage } = pageInfo;
  const kept = new URLSearchParams(options.query);
  kept.delete("page");
  const pageUrl = (page: number) => {
    const params = new URLSearchParams(kept);
    params.set("page", String(page));
    return `${path}?${params.toString()}`;
  };
  const from = data.length > 0 ? (currentPage - 1) * perPage + 1 : null;
  const prev = currentPage > 1 ? pageUrl(currentPage - 1) : null;
  const next = currentPage < lastPage ? pageUrl(currentPage + 1) : null;
  return {
    current_page: currentPage,
    data,
    first_page_url: pageUrl(1),
    from,
    last_page: lastPage,
    last_page_url: pageUrl(lastPage),
    links: [
      { url: prev, label: "&laquo; Previous", active: false },
      ...pageWindow(currentPage, lastPage).map((page) =>
        page === null
          ? { url: null, label: "...", active: false }
          : { url: pageUrl(page), label: String(page), active: page === currentPage },
      ),
      { url: next, label: "Next &raquo;", active: false },
    ],
    next_page_url: next,
    path,
    per_page: perPage,
    prev_page_url: prev,
    to: from === null ? null : from + data.length - 1,
    total,
  };
}

const ON_EACH_SIDE = 3;

/**
 * The numbered links, laid out as the original (Laravel) paginator does: every page when there are
 * fewer than 14; otherwise the first pages, a window of three on each side of the current page and
 * the last pages, with `null` standing for a "..." separator.
 */
export function pageWindow(current: number, last: number): (number | null)[] {
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
  if (last < ON_EACH_SIDE * 2 + 8) return range(1, last);
  const window = ON_EACH_SIDE + 4;
  const start = range(1, 2);
  const finish = range(last - 1, last);
  if (current <= window) return [...range(1, window + ON_EACH_SIDE), null, ...finish];
  if (current > last - window) return [...start, null, ...range(last - (window + ON_EACH_SIDE - 1), last)];
  return [...start, null, ...range(current - ON_EACH_SIDE, current + ON_EACH_SIDE), null, ...finish];
}
