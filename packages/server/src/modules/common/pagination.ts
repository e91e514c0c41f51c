import { z } from "zod";
import { parseInput } from "../../validation.ts";

export interface PageInfo {
  total: number;
  currentPage: number;
  perPage: number;
  lastPage: number;
}

export interface Page<Item> {
  items: Item[];
  pageInfo: PageInfo;
}

/** Paging arguments as callers send them; validated here (1 to 100 per page, pages from 1). */
export interface PageRequest {
  page?: unknown;
  perPage?: unknown;
}

function pageSchema(defaultPerPage: number) {
  return z.object({
    page: z
      .number({ error: "The page field must be an integer." })
      .int("The page field must be an integer.")
      .min(1, "The page field must be at least 1.")
      .nullish()
      .transform((value) => value ?? 1),
    perPage: z
      .number({ error: "The per page field must be an integer." })
      .int("The per page field must be an integer.")
      .min(1, "The per page field must be between 1 and 100.")
      .max(100, "The per page field must be between 1 and 100.")
      .nullish()
      .transform((value) => value ?? defaultPerPage),
  });
}

/**
 * Offset pagination as the legacy API defines it. A page past the end is not an error: it is
 * empty, and `pageInfo` still tells the real total and last page.
 */
export async function paginate<Item>(
  request: PageRequest,
  defaultPerPage: number,
  query: { count(): Promise<number>; items(skip: number, take: number): Promise<Item[]> },
): Promise<Page<Item>> {
  const { page, perPage } = parseInput(pageSchema(defaultPerPage), {
    page: request.page,
    perPage: request.perPage,
  });
  const total = await query.count();
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const skip = (page - 1) * perPage;
  const items = skip < total ? await query.items(skip, perPage) : [];
  return { items, pageInfo: { total, currentPage: page, perPage, lastPage } };
}
