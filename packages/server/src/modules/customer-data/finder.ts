import { Prisma } from "../../generated/prisma/client.ts";
import { type CustomerIdentifier, phoneDigitForms } from "./identifiers.ts";

type Db = Pick<Prisma.TransactionClient, "$queryRaw">;

/** A condition known when the query is built, written into it. */
const flag = (condition: boolean) => Prisma.raw(condition ? "true" : "false");

/**
 * Where the customer appears, by kind of record. Each finder answers ids of the account's rows that
 * still name the customer, at most `limit`: an erasure step takes a batch, changes it so that it no
 * longer matches, and asks again until nothing is left (which is also how it resumes after a crash).
 *
 * - phone: calls from or to the number (`clientPhoneNumber`) and their transfer legs, leads and
 *   secondary contacts with the number, conversations whose customer identifier is the number (SMS,
 *   generate-reply), texts from or to it, appointments booked with it, texts opt-outs.
 * - email: appointments booked with it, conversations whose identifier it is, and calls, leads and
 *   conversations that carry it as a variable value (so do phone numbers, in any punctuation).
 * - customer_id: conversations whose identifier it is (generate-reply), a widget conversation by its
 *   id (the visitor's handle), and calls, leads and conversations that carry it as a variable value.
 *
 * Records tied to one already found come with it: appointments and texts of its calls and
 * conversations, webhook events of its calls, leads, conversations and appointments (and any whose
 * payload contains the identifier), the calls of its leads.
 */
export function customerFinder(db: Db, accountId: number, who: CustomerIdentifier) {
  const value = who.value;
  /** A JSON object of variables having the identifier as one of its values (case-insensitive for emails). */
  const digits = who.kind === "phone" ? phoneDigitForms(value) : [];
  // A number as people type it in a form ("(415) 555-0123"): its digits in any of their forms.
  const matches = (text: Prisma.Sql) =>
    who.kind === "phone"
      ? Prisma.sql`regexp_replace(${text}, '[^0-9]', '', 'g') = ANY(${digits}::text[])`
      : Prisma.sql`lower(${text}) = lower(${value})`;
  const inVariables = (column: Prisma.Sql) =>
    Prisma.sql`(jsonb_typeof(${column}) = 'object' AND EXISTS (
      SELECT 1 FROM jsonb_each_text(${column}) AS v WHERE ${matches(Prisma.sql`v.value`)}))`;

  const conversationsWhere = Prisma.sql`c."accountId" = ${accountId}::integer AND (
      (${flag(who.kind !== "email")} AND c."customerIdentifier" = ${value})
      OR (${flag(who.kind === "email")} AND lower(c."customerIdentifier") = ${value})
      OR (${flag(who.kind === "customer_id")} AND c."channel" = 'widget' AND c."id"::text = lower(${value}))
      OR ${inVariables(Prisma.sql`c."variables"`)})`;
  const leadsWhere = Prisma.sql`l."accountId" = ${accountId}::integer AND (
      (${flag(who.kind === "phone")} AND l."phoneNumber" = ${value}) OR ${inVariables(Prisma.sql`l."variables"`)})`;
  const callsWhere = Prisma.sql`k."accountId" = ${accountId}::integer AND (
      (${flag(who.kind === "phone")} AND k."clientPhoneNumber" = ${value})
      OR ${inVariables(Prisma.sql`k."variables"`)}
      OR k."leadId" IN (SELECT l."id" FROM "leads" l WHERE ${leadsWhere}))`;

  const ids = async <T = number>(query: Prisma.Sql): Promise<T[]> =>
    (await db.$queryRaw<{ id: T }[]>(query)).map((row) => row.id);

  return {
    conversations: (limit: number) =>
      ids<string>(
        Prisma.sql`SELECT c."id" FROM "conversations" c WHERE ${conversationsWhere} ORDER BY c."id" LIMIT ${limit}::integer`,
      ),

    /** The customer's calls with the transfer legs made from them (whose transcript holds the customer too). */
    calls: async (limit: number) => {
      const own = await ids(
        Prisma.sql`SELECT k."id" FROM "calls" k WHERE ${callsWhere} ORDER BY k."id" LIMIT ${limit}::integer`,
      );
      if (own.length === 0) return own;
      const legs = await ids(Prisma.sql`
        SELECT k."id" FROM "calls" k
        WHERE k."transferredFromCallId" = ANY(${own}::integer[]) AND k."transcript" <> '' ORDER BY k."id"`);
      return [...own, ...legs.filter((id) => !own.includes(id))];
    },

    leads: (limit: number) =>
      ids(
        Prisma.sql`SELECT l."id" FROM "leads" l WHERE ${leadsWhere} ORDER BY l."id" LIMIT ${limit}::integer`,
      ),

    secondaryContacts: (limit: number) =>
      ids(Prisma.sql`
        SELECT s."id" FROM "secondary_contacts" s JOIN "leads" l ON l."id" = s."leadId"
        WHERE l."accountId" = ${accountId}::integer AND ${flag(who.kind === "phone")} AND s."phoneNumber" = ${value}
        ORDER BY s."id" LIMIT ${limit}::integer`),

    /** Texts from or to the number, and those of the customer's conversations. */
    texts: (limit: number) =>
      ids(Prisma.sql`
        SELECT t."id" FROM "text_messages" t
        WHERE t."accountId" = ${accountId}::integer AND (
          (${flag(who.kind === "phone")} AND ((t."direction" = 'inbound' AND t."from" = ${value})
                                         OR (t."direction" = 'outbound' AND t."to" = ${value})))
          OR t."conversationId" IN (SELECT c."id" FROM "conversations" c WHERE ${conversationsWhere}))
        ORDER BY t."id" LIMIT ${limit}::integer`),

    textOptOuts: (limit: number) =>
      db.$queryRaw<{ accountNumber: string; customerNumber: string; optedOut: boolean }[]>(Prisma.sql`
        SELECT o."accountNumber", o."customerNumber", o."optedOut" FROM "text_opt_outs" o
        WHERE o."accountId" = ${accountId}::integer AND ${flag(who.kind === "phone")} AND o."customerNumber" = ${value}
        LIMIT ${limit}::integer`),

    /**
     * Appointments booked with the identifier or during the customer's calls and conversations;
     * `named` keeps to those still holding a name, number, email or notes (not yet anonymised).
     */
    appointments: (limit: number, named = false) =>
      ids(Prisma.sql`
        SELECT a."id" FROM "appointments" a
        WHERE a."accountId" = ${accountId}::integer AND (
          (${flag(who.kind === "phone")} AND a."customerPhone" = ${value})
          OR (${flag(who.kind === "email")} AND lower(a."customerEmail") = ${value})
          OR a."callId" IN (SELECT k."id" FROM "calls" k WHERE ${callsWhere})
          OR a."conversationId" IN (SELECT c."id" FROM "conversations" c WHERE ${conversationsWhere}))
          AND (NOT ${flag(named)} OR a."customerName" <> '' OR a."customerPhone" IS NOT NULL
               OR a."customerEmail" IS NOT NULL OR a."notes" IS NOT NULL)
        ORDER BY a."id" LIMIT ${limit}::integer`),

    /**
     * Webhook events (and so their delivery log) about the customer's calls, leads, conversations
     * and appointments, or whose payload contains the identifier.
     */
    webhookEvents: (limit: number) =>
      ids(Prisma.sql`
        WITH calls AS (SELECT k."id" FROM "calls" k WHERE ${callsWhere}),
             streams AS (
               SELECT 'call:' || k."id" AS "key" FROM calls k
               UNION ALL SELECT 'lead:' || l."id" FROM "leads" l WHERE ${leadsWhere}
               UNION ALL SELECT 'conversation:' || c."id" FROM "conversations" c WHERE ${conversationsWhere}
               UNION ALL SELECT 'appointment:' || a."id" FROM "appointments" a
                 WHERE a."accountId" = ${accountId}::integer AND (
                   (${flag(who.kind === "phone")} AND a."customerPhone" = ${value})
                   OR (${flag(who.kind === "email")} AND lower(a."customerEmail") = ${value})
                   OR a."callId" IN (SELECT "id" FROM calls)))
        SELECT e."id" FROM "webhook_events" e
        WHERE e."accountId" = ${accountId}::integer AND (
          e."callId" IN (SELECT "id" FROM calls)
          OR e."streamKey" IN (SELECT "key" FROM streams)
          OR strpos(lower(e."payload"::text), lower(${value})) > 0)
        ORDER BY e."id" LIMIT ${limit}::integer`),
  };
}

export type CustomerFinder = ReturnType<typeof customerFinder>;
