import { z } from "zod";
import type { CalendarProviderKind } from "../../generated/prisma/client.ts";
import { requiredString } from "../../validation.ts";

// What connection inputs may hold; `CalendarsService` checks them against the connection's provider.

const MAX_READ_CALENDARS = 10;

const calendarUrl = (label: string) =>
  requiredString(label, 2048).refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), {
    message: `The ${label} field must be an http or https URL.`,
  });

export const readUrls = z
  .array(calendarUrl("readUrls"))
  .max(MAX_READ_CALENDARS, `At most ${MAX_READ_CALENDARS} further calendars can be read.`);
export const calendarIds = z
  .array(requiredString("readUrls", 1024))
  .max(MAX_READ_CALENDARS, `At most ${MAX_READ_CALENDARS} further calendars can be read.`);
const apiKey = requiredString("apiKey", 512);
const eventTypeId = z
  .number({ error: "The eventTypeId field must be a number." })
  .int("The eventTypeId field must be a whole number.")
  .positive("The eventTypeId field must be positive.")
  .max(999_999_999_999, "The eventTypeId field is too large.");

export const CreateConnectionInput = z.discriminatedUnion(
  "provider",
  [
    z.object({
      name: requiredString("name"),
      provider: z.literal("caldav"),
      url: calendarUrl("url"),
      readUrls: readUrls.default([]),
      username: requiredString("username", 512),
      password: requiredString("password", 4096),
    }),
    z.object({
      name: requiredString("name"),
      provider: z.literal("calcom"),
      apiKey,
      eventTypeId,
    }),
  ],
  {
    error: (issue) => {
      const provider = (issue.input as { provider?: unknown } | undefined)?.provider ?? issue.input;
      return provider === "google" || provider === "microsoft"
        ? "Google and Microsoft calendars are connected by signing in: use startCalendarOAuth."
        : "The provider field must be caldav or calcom.";
    },
  },
);

/** Fields of an update, checked against the connection's provider in `updateConnection`. */
export const UpdateConnectionInput = z.object({
  name: requiredString("name").optional(),
  url: requiredString("url", 2048).optional(),
  readUrls: z.array(z.string()).optional(),
  username: requiredString("username", 512).optional(),
  password: requiredString("password", 4096).optional(),
  apiKey: apiKey.optional(),
  eventTypeId: eventTypeId.optional(),
});

/** What each provider lets an update change (name always). */
export const UPDATABLE: Record<CalendarProviderKind, readonly string[]> = {
  caldav: ["url", "readUrls", "username", "password"],
  calcom: ["apiKey", "eventTypeId"],
  google: ["url", "readUrls"],
  microsoft: ["url", "readUrls"],
};

export const CheckedUrl = z.object({ url: calendarUrl("url") });
