import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { type Actor, type EventSink, systemActor } from "../../events.ts";
import { parseInput } from "../../validation.ts";
import { formatClockTime, parseClockTime, quietUntil } from "./quiet-hours.ts";

const clockTime = (label: string) =>
  z
    .string({ error: `The ${label} field must be a string.` })
    .transform((value, context) => {
      const minutes = parseClockTime(value);
      if (minutes === null) {
        context.addIssue({ code: "custom", message: `The ${label} field must be a time such as 21:00.` });
        return z.NEVER;
      }
      return minutes;
    })
    .nullish();

const QuietHoursInput = z
  .object({ start: clockTime("start"), end: clockTime("end") })
  .refine((hours) => (hours.start == null) === (hours.end == null), {
    message: "Give both start and end, or neither to turn quiet hours off.",
    path: ["end"],
  })
  .refine((hours) => hours.start == null || hours.start !== hours.end, {
    message: "The end field must differ from the start field.",
    path: ["end"],
  });

/**
 * How long after a customer's text a reply to them is conversational: it is sent even in quiet
 * hours, since the customer is waiting for it.
 */
export const CONVERSATION_WINDOW_MS = 60 * 60_000;

/**
 * The account's quiet hours for outbound texts (docs/sms.md): their setting, and when a text may
 * leave.
 */
export class TextQuietHours {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly events: EventSink,
  ) {}

  /**
   * When a text from `from` to `to` sent at `at` may leave: null for now, else the end of the
   * account's quiet hours. A reply to a customer who texted this number within the conversation
   * window is never held: they are waiting for it.
   */
  async until(accountId: number, from: string, to: string, at: Date): Promise<Date | null> {
    const account = await this.deps.db.prisma.account.findUniqueOrThrow({
      where: { id: accountId },
      select: { timezone: true, textQuietStart: true, textQuietEnd: true },
    });
    if (account.textQuietStart === null || account.textQuietEnd === null) return null;
    const until = quietUntil(
      { start: account.textQuietStart, end: account.textQuietEnd, timeZone: account.timezone },
      at,
    );
    if (!until) return null;
    const recent = await this.deps.db.prisma.textMessage.findFirst({
      where: {
        accountId,
        direction: "inbound",
        from: to,
        to: from,
        createdAt: { gte: new Date(at.getTime() - CONVERSATION_WINDOW_MS) },
      },
      select: { id: true },
    });
    return recent ? null : until;
  }

  /** The account's quiet hours for outbound texts, or null when it has none. */
  async get(accountId: number): Promise<{ start: string; end: string; timezone: string } | null> {
    const account = await this.deps.db.prisma.account.findUniqueOrThrow({
      where: { id: accountId },
      select: { timezone: true, textQuietStart: true, textQuietEnd: true },
    });
    if (account.textQuietStart === null || account.textQuietEnd === null) return null;
    return {
      start: formatClockTime(account.textQuietStart),
      end: formatClockTime(account.textQuietEnd),
      timezone: account.timezone,
    };
  }

  /** Sets the account's quiet hours (both times), or clears them (neither). */
  /** An account setting: audited as account.updated. */
  async set(accountId: number, request: { start?: unknown; end?: unknown }, actor: Actor = systemActor) {
    const { start, end } = parseInput(QuietHoursInput, request);
    await this.deps.db.prisma.$transaction(async (tx) => {
      await tx.account.update({
        where: { id: accountId },
        data: { textQuietStart: start ?? null, textQuietEnd: end ?? null },
      });
      await this.events.emit(tx, {
        type: "account.updated",
        accountId,
        actor,
        target: { type: "account", id: accountId },
        details: { fields: ["textQuietStart", "textQuietEnd"] },
      });
    });
    this.deps.logger.info("text quiet hours set", { accountId, start, end });
    return this.get(accountId);
  }
}
