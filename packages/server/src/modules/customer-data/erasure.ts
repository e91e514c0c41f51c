import type { Prisma, PrismaClient } from "../../generated/prisma/client.ts";
import { customerFinder } from "./finder.ts";
import type { CustomerIdentifier } from "./identifiers.ts";

/** Rows changed per transaction: short transactions that never hold up requests for long. */
export const ERASURE_BATCH = 100;

/** What an erasure step is given. */
export interface ErasureContext {
  prisma: PrismaClient;
  accountId: number;
  who: CustomerIdentifier;
  recordings: { remove(callId: number): Promise<void> };
  /**
   * Runs `work` in a transaction that also checks the job is still this instance's (and extends its
   * lease) and adds the rows `work` reports to the step's count: a batch and its progress commit
   * together, or neither.
   */
  commit(work: (tx: Prisma.TransactionClient) => Promise<number>): Promise<number>;
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
 * costs and ledger entries, a text its segments and cost, an appointment its slot; only what says
 * who the customer is or what they said goes.
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
      if (ids.length === 0) return 0;
      return context.commit(async (tx) => {
        const { count } = await tx.appointment.updateMany({
          where: { id: { in: ids }, accountId: context.accountId },
          data: { customerName: "", customerPhone: null, customerEmail: null, notes: null },
        });
        return count;
      });
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
