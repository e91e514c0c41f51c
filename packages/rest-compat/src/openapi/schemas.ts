import { z } from "zod";

/**
 * Pieces of the REST API's reference shared by several routes: the response shapes the legacy
 * specification defines, written once as zod schemas that become JSON Schema in the OpenAPI document.
 */

/** Format A: ISO 8601 in UTC with microseconds. */
export const formatA = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
  .meta({ description: "UTC, ISO 8601 with microseconds", examples: ["2026-01-31T09:30:00.123000Z"] });

/** Format B: `YYYY-MM-DD HH:MM:SS` in UTC. */
export const formatB = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  .meta({ description: "UTC, `YYYY-MM-DD HH:MM:SS`", examples: ["2026-01-31 09:30:00"] });

/** A JSON object of caller-chosen values (variables, evaluations, webhook answers). */
export const freeObject = z.record(z.string(), z.unknown());

export const message = (example: string) => z.object({ message: z.string().meta({ examples: [example] }) });

/** The default error body: `{message}`, with field messages keyed by snake_case path for 422s. */
export const errorBody = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});

/** generate-reply's error body. */
export const replyErrorBody = z.object({
  success: z.literal(false),
  error_code: z.string(),
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});

/** The widget conversation endpoints' error body. */
export const conversationErrorBody = z.object({ status: z.literal(false), error: z.string() });

const pageLink = z.object({ url: z.string().nullable(), label: z.string(), active: z.boolean() });

/** The legacy (Laravel) pagination envelope around a page of `item`. */
export function paginated<Item extends z.ZodType>(item: Item) {
  return z.object({
    current_page: z.int(),
    data: z.array(item),
    first_page_url: z.string(),
    from: z.int().nullable(),
    last_page: z.int(),
    last_page_url: z.string(),
    links: z.array(pageLink),
    next_page_url: z.string().nullable(),
    path: z.string(),
    per_page: z.int(),
    prev_page_url: z.string().nullable(),
    to: z.int().nullable(),
    total: z.int(),
  });
}

/** `page` and `per_page` of every paginated list. */
export const pageQuery = {
  page: z.int().min(1).optional().meta({ description: "Page number (default 1)" }),
  per_page: z
    .int()
    .min(1)
    .max(100)
    .optional()
    .meta({ description: "Items per page, 1 to 100 (the default depends on the list)" }),
};
