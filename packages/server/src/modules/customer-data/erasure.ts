import type { Appointment, ErasureEventLeft, Prisma, PrismaClient } from "../../generated/prisma/client.ts";
import type { Logger } from "../../logger.ts";
import { erasedEvent } from "../appointments/index.ts";
import { type CalendarEvent, type EventRewrite, isBreakingFailure } from "../calendars/index.ts";
import { customerFinder } from "./finder.ts";
import type { CustomerIdentifier } from "./identifiers.ts";

/** Rows changed per transaction: short transactions that never hold up requests for long. */
export const ERASURE_BATCH = 100;

/**
 * Calendar events rewritten per batch, each a provider request or three: few enough that a stopping
 * server's run ends soon, between two batches.
 */
export const EVENT_BATCH = 10;

/** The calendars module's rewrite of an event in one of the account's calendars. */
export interface CalendarEventRewriter {
  rewriteEvent(
    accountId: number,
    target: { connectionId: number; externalId: string },
    event: CalendarEvent,
  ): Promise<EventRewrite>;
}

/** What an erasure step is given. */
export interface ErasureContext {
  prisma: PrismaClient;
  accountId: number;
  /** The job: the events it leaves are listed under it, and earlier jobs' of the same customer retried. */
  job: { id: number; identifierHash: string };
  who: CustomerIdentifier;
  recordings: { remove(callId: number): Promise<void> };
  calendars: CalendarEventRewriter;
  logger: Logger;
  /** The job's last allowed run: a calendar that is still failing is then left, not waited for. */
  lastAttempt: boolean;
  /** Aborted when the server stops: a step making provider requests ends its batch early. */
  signal: AbortSignal;
  /**
   * Runs `work` in a transaction that also checks the job is still this instance's (and extends its
   * lease) and adds the rows `work` reports to the step's count, and `also` to theirs: a batch and
   * its progress commit together, or neither.
   */
  commit(
    work: (tx: Prisma.TransactionClient) => Promise<number>,
    also?: Record<string, number>,
  ): Promise<number>;
  /** Records (or completes) the customer's tombstone in `tx`. */
  tombstone(tx: Prisma.TransactionClient, fields?: { textsOptedOut?: boolean }): Promise<void>;
}

export interface ErasureStep {
  /** The key of its count in the job's `counts`. */
  name: string;
  /** Erases one batch; 0 when nothing is left. What it changed no longer matches the customer. */
  batch(context: ErasureContext): Promise<number>;
}

const find = (context: ErasureContext) => customerFinder(context.prisma, context.accountId, context.who);

/**
 * The erasure, in order: rows tied to others through links a later step removes go first (webhook
 * events of a call before the call loses its number, appointments and texts of a conversation before
 * it is deleted, calls before the leads they point to). Money stays: a call keeps its duration,
 * costs and ledger entries, a text its segments and cost, an appointment its slot (and the business
 * its calendar event, rewritten without the customer); only what says who the customer is or what
 * they said goes.
 */
export const ERASURE_STEPS: ErasureStep[] = [
  {
    name: "webhookEvents",
    async batch(context) {
      const ids = await find(context).webhookEvents(ERASURE_BATCH);
      if (ids.length === 0) return 0;
      // Their attempts (the delivery log) go with them (foreign key).
      return context.commit(async (tx) => {
        const { count } = await tx.webhookEvent.deleteMany({
          where: { id: { in: ids }, accountId: context.accountId },
        });
        return count;
      });
    },
  },
  {
    name: "appointments",
    async batch(context) {
      const ids = await find(context).appointments(ERASURE_BATCH, true);
      if (ids.length === 0) return retryEventsLeft(context);
      // Booked ones first have their event in the business's calendar rewritten, while the row
      // still names its connection and event.
      const withEvents = await context.prisma.appointment.findMany({
        where: { id: { in: ids }, accountId: context.accountId, status: "booked", externalId: { not: "" } },
        orderBy: { id: "asc" },
        take: EVENT_BATCH,
      });
      if (withEvents.length > 0) {
        for (const appointment of withEvents) {
          if (context.signal.aborted) break;
          await eraseEvent(context, appointment, appointment);
        }
        // Not 0 even when stopped early: the step is not done, and the run ends before the next batch.
        return withEvents.length;
      }
      return context.commit((tx) => anonymiseAppointments(tx, context.accountId, ids));
    },
  },
  {
    name: "texts",
    async batch(context) {
      const ids = await find(context).texts(ERASURE_BATCH);
      if (ids.length === 0) return 0;
      return context.commit(async (tx) => {
        // The customer's side of each text: the sender of what came in, the recipient of what went out.
        const inbound = await tx.textMessage.updateMany({
          where: { id: { in: ids }, accountId: context.accountId, direction: "inbound" },
          data: { from: "", body: "", conversationId: null, messageId: null },
        });
        const outbound = await tx.textMessage.updateMany({
          where: { id: { in: ids }, accountId: context.accountId, direction: "outbound" },
          data: { to: "", body: "", conversationId: null, messageId: null },
        });
        return inbound.count + outbound.count;
      });
    },
  },
  {
    name: "textOptOuts",
    async batch(context) {
      const rows = await find(context).textOptOuts(ERASURE_BATCH);
      if (rows.length === 0) return 0;
      // The opt-out holds the number: the tombstone keeps it instead (made now, with the deletion,
      // so that a crash before the end cannot lose it).
      return context.commit(async (tx) => {
        if (rows.some((row) => row.optedOut)) await context.tombstone(tx, { textsOptedOut: true });
        const { count } = await tx.textOptOut.deleteMany({
          where: {
            accountId: context.accountId,
            OR: rows.map(({ accountNumber, customerNumber }) => ({ accountNumber, customerNumber })),
          },
        });
        return count;
      });
    },
  },
  {
    name: "conversations",
    async batch(context) {
      const ids = await find(context).conversations(ERASURE_BATCH);
      if (ids.length === 0) return 0;
      return context.commit(async (tx) => {
        // Charges stay, but their descriptions name the conversation ("Widget message in conversation <id>").
        await tx.$executeRaw`
          UPDATE "ledger_entries" SET "description" = regexp_replace("description", ' in conversation [0-9a-f-]{36}', ' in an erased conversation')
          WHERE "accountId" = ${context.accountId}::integer
            AND substring("description" from '[0-9a-f-]{36}$') = ANY(${ids}::text[])`;
        // Messages go with their conversation (foreign key); texts and appointments lose the link.
        const { count } = await tx.conversation.deleteMany({
          where: { id: { in: ids }, accountId: context.accountId },
        });
        return count;
      });
    },
  },
  {
    name: "calls",
    async batch(context) {
      const ids = await find(context).calls(ERASURE_BATCH);
      if (ids.length === 0) return 0;
      // Files first: a crash between the two finds the calls again and removes nothing twice.
      for (const id of ids) await context.recordings.remove(id);
      return context.commit(async (tx) => {
        await tx.callTurn.deleteMany({ where: { callId: { in: ids } } });
        const { count } = await tx.call.updateMany({
          where: { id: { in: ids }, accountId: context.accountId },
          data: {
            clientPhoneNumber: "",
            transcript: "",
            variables: {},
            evaluation: {},
            evaluationError: "",
            webhookResponse: {},
            recordingUrl: "",
            recordingStatus: "",
            leadId: null,
          },
        });
        return count;
      });
    },
  },
  {
    name: "secondaryContacts",
    async batch(context) {
      const ids = await find(context).secondaryContacts(ERASURE_BATCH);
      if (ids.length === 0) return 0;
      return context.commit(async (tx) => {
        const { count } = await tx.secondaryContact.deleteMany({ where: { id: { in: ids } } });
        return count;
      });
    },
  },
  {
    name: "leads",
    async batch(context) {
      const ids = await find(context).leads(ERASURE_BATCH);
      if (ids.length === 0) return 0;
      // Secondary contacts go with them (foreign key); calls were unlinked by the calls step.
      return context.commit(async (tx) => {
        const { count } = await tx.lead.deleteMany({
          where: { id: { in: ids }, accountId: context.accountId },
        });
        return count;
      });
    },
  },
];

async function anonymiseAppointments(
  tx: Prisma.TransactionClient,
  accountId: number,
  ids: number[],
): Promise<number> {
  const { count } = await tx.appointment.updateMany({
    where: { id: { in: ids }, accountId },
    data: { customerName: "", customerPhone: null, customerEmail: null, notes: null },
  });
  return count;
}

/** A calendar event not rewritten yet, because its calendar failed in a way that may pass. */
class CalendarEventPendingError extends Error {
  constructor(appointmentId: number, reason: string) {
    super(`The calendar event of appointment ${appointmentId} could not be rewritten yet (${reason}).`);
    this.name = "CalendarEventPendingError";
  }
}

/**
 * Why an event was left, as the job lists it: a stable code the business acts on, from the calendars
 * module's outcome (docs/data-governance.md#calendar-events).
 */
export type EventLeftReason =
  /** A booking system's event (Cal.com): its API cannot edit the attendee; erase it there. */
  | "PROVIDER_CANNOT_EDIT"
  /** The connection was deleted: the event is in a calendar Voxgate no longer reaches. */
  | "CONNECTION_DELETED"
  /** The calendar refused the connection (revoked grant, password, permissions): fix it, then erase again. */
  | "CONNECTION_REFUSED"
  /** The calendar kept failing (down, timing out, answering oddly) through the job's attempts: erase again. */
  | "PROVIDER_FAILED";

function leftReason(reason: string): { reason: EventLeftReason; failure: string | null } {
  if (reason === "not_editable") return { reason: "PROVIDER_CANNOT_EDIT", failure: null };
  if (reason === "no_connection") return { reason: "CONNECTION_DELETED", failure: null };
  // A broken connection, or a server without the provider's OAuth client: only the business mends it.
  const refused = isBreakingFailure(reason) || reason === "not_configured";
  return { reason: refused ? "CONNECTION_REFUSED" : "PROVIDER_FAILED", failure: reason };
}

/**
 * After the customer's own appointments: the events earlier erasures of the same customer left (and
 * nobody marked erased by hand) are tried again, rewriting being idempotent. Their appointments were
 * anonymised then, so only those lists still lead to them. Each is marked retried by this job in the
 * commit that counts it; one still left is listed under this job instead.
 */
async function retryEventsLeft(context: ErasureContext): Promise<number> {
  const earlier = await context.prisma.erasureEventLeft.findMany({
    where: {
      accountId: context.accountId,
      jobId: { not: context.job.id },
      retriedByJobId: null,
      handledAt: null,
      job: { kind: "erase", identifierHash: context.job.identifierHash },
    },
    orderBy: { id: "asc" },
    take: EVENT_BATCH,
  });
  for (const left of earlier) {
    if (context.signal.aborted) break;
    const appointment = await context.prisma.appointment.findFirst({
      where: { id: left.appointmentId, accountId: context.accountId },
    });
    if (appointment) await eraseEvent(context, appointment, left, left);
    else
      await context.commit(async (tx) => {
        await markRetried(tx, context, left);
        return 0;
      });
  }
  // Not 0 even when stopped early: the step is not done, and the run ends before the next batch.
  return earlier.length;
}

async function markRetried(tx: Prisma.TransactionClient, context: ErasureContext, left: ErasureEventLeft) {
  await tx.erasureEventLeft.updateMany({
    where: { id: left.id, retriedByJobId: null },
    data: { retriedByJobId: context.job.id },
  });
}

/**
 * Rewrites the appointment's event without the customer, then anonymises the row in the commit that
 * counts the event (`externalEventsRedacted`, or `externalEventsLeft` when it could not be done):
 * the row no longer matches the customer, so a later run does not take it again, and a run cut
 * short before the commit rewrites the event again, which changes nothing. A calendar failing in a
 * way that may pass fails the run, so that the job runner retries it after its lease (a backoff),
 * up to its last attempt, when the event is left instead: the erasure never waits for good.
 * A left event is listed under the job (`erasure_events_left`) in the same commit. `target` is the
 * event: the appointment's own, or the one an earlier job listed (`earlier`, whose appointment was
 * anonymised then and is not counted again). Logs carry the appointment's id, never the customer.
 */
async function eraseEvent(
  context: ErasureContext,
  appointment: Appointment,
  target: Pick<Appointment, "connectionId" | "externalId" | "provider" | "startsAt">,
  earlier?: ErasureEventLeft,
): Promise<void> {
  const result = await context.calendars.rewriteEvent(
    context.accountId,
    { connectionId: target.connectionId, externalId: target.externalId },
    erasedEvent(appointment),
  );
  const where = {
    accountId: context.accountId,
    appointmentId: appointment.id,
    connectionId: target.connectionId,
    provider: target.provider,
  };
  if (result.outcome === "left") {
    if (result.retriable && !context.lastAttempt) {
      context.logger.warn("customer erasure: calendar event not rewritten yet, retried later", {
        ...where,
        reason: result.reason,
      });
      throw new CalendarEventPendingError(appointment.id, result.reason);
    }
    context.logger.warn("customer erasure: calendar event left with the customer's details", {
      ...where,
      reason: result.reason,
    });
  }
  await context.commit(
    async (tx) => {
      if (result.outcome === "left") {
        // Unique per job and appointment: a run resumed after a crash lists it once.
        await tx.erasureEventLeft.createMany({
          data: {
            accountId: context.accountId,
            jobId: context.job.id,
            appointmentId: appointment.id,
            connectionId: target.connectionId,
            provider: target.provider,
            externalId: target.externalId,
            startsAt: target.startsAt,
            ...leftReason(result.reason),
          },
          skipDuplicates: true,
        });
      }
      if (!earlier) return anonymiseAppointments(tx, context.accountId, [appointment.id]);
      await markRetried(tx, context, earlier);
      return 0;
    },
    { [result.outcome === "left" ? "externalEventsLeft" : "externalEventsRedacted"]: 1 },
  );
}
