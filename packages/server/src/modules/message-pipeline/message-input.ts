import { z } from "zod";
import type { Variables } from "./prompt.ts";

/** Customer messages through the widget and test conversations, and operator messages. */
export const WIDGET_MESSAGE_MAX = 2000;
const VARIABLES_MAX_KEYS = 50;
const VARIABLE_VALUE_MAX = 1000;

/** A required message of at most `max` characters, with the legacy API's wording. */
export function messageText(max: number, label = "message") {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? `The ${label} field is required.`
          : `The ${label} field must be a string.`,
    })
    .trim()
    .min(1, `The ${label} field is required.`)
    .max(max, `The ${label} field must not be greater than ${max} characters.`);
}

/** Flat variables for `{{name}}` substitution: at most 50 names, scalar values. */
export const variablesInput = z
  .unknown()
  .optional()
  .superRefine((value, context) => {
    if (value === undefined || value === null) return;
    if (typeof value !== "object" || Array.isArray(value)) {
      context.addIssue({ code: "custom", message: "The variables field must be an object." });
      return;
    }
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length > VARIABLES_MAX_KEYS) {
      context.addIssue({
        code: "custom",
        message: `The variables field must not have more than ${VARIABLES_MAX_KEYS} items.`,
      });
    }
    for (const [name, item] of entries) {
      const scalar = item === null || ["string", "number", "boolean"].includes(typeof item);
      if (!/^[A-Za-z_][\w.-]{0,63}$/.test(name)) {
        context.addIssue({
          code: "custom",
          path: [name],
          message: "Variable names start with a letter or _ and use at most 64 letters, digits, _ . or -.",
        });
      } else if (!scalar) {
        context.addIssue({
          code: "custom",
          path: [name],
          message: `The variables.${name} field must be a string, number, boolean or null.`,
        });
      } else if (typeof item === "string" && item.length > VARIABLE_VALUE_MAX) {
        context.addIssue({
          code: "custom",
          path: [name],
          message: `The variables.${name} field must not be greater than ${VARIABLE_VALUE_MAX} characters.`,
        });
      }
    }
  })
  .transform((value) => (value ?? {}) as Variables);
