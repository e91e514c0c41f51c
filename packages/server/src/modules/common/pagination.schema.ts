import type { ObjectRef } from "@pothos/core";
import { builder } from "../../builder.ts";
import type { Page, PageInfo } from "./pagination.ts";

export const PageInfoRef = builder.objectRef<PageInfo>("PageInfo").implement({
  description: "Where a page sits in its list. A page past the end has no items but the real totals.",
  fields: (t) => ({
    total: t.exposeInt("total", { description: "Items matching the filters, over all pages." }),
    currentPage: t.exposeInt("currentPage"),
    perPage: t.exposeInt("perPage"),
    lastPage: t.exposeInt("lastPage"),
  }),
});

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** A `<Name>Page { items, pageInfo }` type for a list of `item`. */
export function pageOf<Item>(name: string, item: ObjectRef<Types, Item>) {
  return builder.objectRef<Page<Item>>(name).implement({
    fields: (t) => ({
      items: t.field({ type: [item], resolve: (page) => page.items }),
      pageInfo: t.field({ type: PageInfoRef, resolve: (page) => page.pageInfo }),
    }),
  });
}
