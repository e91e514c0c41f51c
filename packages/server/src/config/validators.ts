// The zod pieces that several areas of the configuration (src/config/*.ts) validate their variables with.
import { z } from "zod";

/** An unset variable and an empty one mean the same: `FOO=` in a .env file must not be a value. */
export const emptyAsUndefined = (value: unknown) => (value === "" ? undefined : value);

/** `a, b,,c` → `["a", "b", "c"]`. */
export function commaSeparated(value: string): string[] {
  return value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}

export const port = z.coerce
  .number({ error: "must be a port number" })
  .int("must be a whole number")
  .min(0, "must be between 0 and 65535")
  .max(65535, "must be between 0 and 65535");

export const positiveInt = z.coerce
  .number({ error: "must be a number" })
  .int("must be a whole number")
  .positive();

/** How long an instance reuses what it looked up; 0 turns its cache off. */
export const cacheSeconds = z.coerce
  .number({ error: "must be a number" })
  .int("must be a whole number")
  .min(0, "must be 0 (no cache) or more")
  .max(3600, "must be at most 3600")
  .default(30);

/** `true` or `false`, nothing else, read as a boolean. */
export const flag = (fallback: "true" | "false") =>
  z
    .enum(["true", "false"], { error: "must be true or false" })
    .default(fallback)
    .transform((value) => value === "true");

export const moneyString = z
  .string()
  .regex(/^\d{1,6}(\.\d{1,4})?$/, "must be a non-negative amount with at most 4 decimals, e.g. 0.01");

export const httpUrl = z.string().refine((value) => /^https?:\/\//.test(value) && URL.canParse(value), {
  message: "must be an http:// or https:// URL",
});

export const httpOrWsUrl = z
  .string()
  .refine((value) => /^(https?|wss?):\/\//.test(value) && URL.canParse(value), {
    message: "must be an http(s):// or ws(s):// URL",
  });

/** A base URL as the clients join paths to it: without trailing slashes. */
export const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, "");

/** A streaming endpoint given as http(s) (as operators often write it) is reached over ws(s). */
export const asWebSocketUrl = (url: string) => withoutTrailingSlash(url).replace(/^http/, "ws");
