import { describe, expect, it } from "vitest";
import { pageWindow, paginationEnvelope } from "./envelope.ts";

const path = "https://voxgate.test/api/user/calls";

describe("paginationEnvelope", () => {
  it("builds every field of the legacy envelope for a middle page", () => {
    const envelope = paginationEnvelope({
      data: ["d", "e"],
      pageInfo: { total: 7, currentPage: 2, perPage: 3, lastPage: 3 },
      path,
      query: new URLSearchParams("status=completed&page=2&per_page=3"),
    });
    expect(envelope).toEqual({
      current_page: 2,
      data: ["d", "e"],
      first_page_url: `${path}?status=completed&per_page=3&page=1`,
      from: 4,
      last_page: 3,
      last_page_url: `${path}?status=completed&per_page=3&page=3`,
      links: [
        { url: `${path}?status=completed&per_page=3&page=1`, label: "&laquo; Previous", active: false },
        { url: `${path}?status=completed&per_page=3&page=1`, label: "1", active: false },
        { url: `${path}?status=completed&per_page=3&page=2`, label: "2", active: true },
        { url: `${path}?status=completed&per_page=3&page=3`, label: "3", active: false },
        { url: `${path}?status=completed&per_page=3&page=3`, label: "Next &raquo;", active: false },
      ],
      next_page_url: `${path}?status=completed&per_page=3&page=3`,
      path,
      per_page: 3,
      prev_page_url: `${path}?status=completed&per_page=3&page=1`,
      to: 5,
      total: 7,
    });
    expect(Object.keys(envelope)).toEqual([
      "current_page",
      "data",
      "first_page_url",
      "from",
      "last_page",
      "last_page_url",
      "links",
      "next_page_url",
      "path",
      "per_page",
      "prev_page_url",
      "to",
      "total",
    ]);
  });

  it("has null neighbours on a single page and null from/to on an empty one", () => {
    const single = paginationEnvelope({
      data: [1],
      pageInfo: { total: 1, currentPage: 1, perPage: 15, lastPage: 1 },
      path,
    });
    expect(single).toMatchObject({ from: 1, to: 1, prev_page_url: null, next_page_url: null });
    expect(single.links[0]).toEqual({ url: null, label: "&laquo; Previous", active: false });
    expect(single.links.at(-1)).toEqual({ url: null, label: "Next &raquo;", active: false });
    expect(single.first_page_url).toBe(`${path}?page=1`);

    const empty = paginationEnvelope({
      data: [],
      pageInfo: { total: 0, currentPage: 1, perPage: 15, lastPage: 1 },
      path,
    });
    expect(empty).toMatchObject({ from: null, to: null, total: 0, last_page: 1 });

    const pastTheEnd = paginationEnvelope({
      data: [],
      pageInfo: { total: 20, currentPage: 9, perPage: 10, lastPage: 2 },
      path,
    });
    expect(pastTheEnd).toMatchObject({
      current_page: 9,
      from: null,
      to: null,
      next_page_url: null,
      total: 20,
    });
    expect(pastTheEnd.prev_page_url).toBe(`${path}?page=8`);
  });
});

describe("pageWindow", () => {
  it("lists every page below 14 pages", () => {
    expect(pageWindow(1, 1)).toEqual([1]);
    expect(pageWindow(5, 13)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13]);
  });

  it("slides a window with ellipses over long lists, as the original paginator does", () => {
    expect(pageWindow(1, 20)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, null, 19, 20]);
    expect(pageWindow(10, 20)).toEqual([1, 2, null, 7, 8, 9, 10, 11, 12, 13, null, 19, 20]);
    expect(pageWindow(20, 20)).toEqual([1, 2, null, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  });
});
