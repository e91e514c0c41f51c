import { strToU8, Zip, ZipDeflate, ZipPassThrough } from "fflate";
import type { PrismaClient } from "../../generated/prisma/client.ts";
import { customerFinder } from "./finder.ts";
import type { CustomerIdentifier } from "./identifiers.ts";

/** Rows of one kind an export holds at most; past it the archive says so (`truncated`). */
export const MAX_EXPORT_ROWS = 10_000;

/** The archive's format, named in its customer.json. */
export const EXPORT_FORMAT = "voxgate.customer-data-export/1";

/** A stored call recording as the export reads it. */
export interface RecordingSource {
  open(
    accountId: number,
    callId: number,
  ): Promise<{ size: number; read(start: number, end: number): AsyncIterable<Buffer> }>;
}

export interface ExportedRecords {
  document: Record<string, unknown>;
  counts: Record<string, number>;
  recordedCallIds: number[];
}

/** Every record tied to the customer, whole, as the archive's customer.json holds it. */
export async function collectCustomerRecords(
  prisma: PrismaClient,
  accountId: number,
  who: CustomerIdentifier,
  exportedAt: Date,
): Promise<ExportedRecords> {
  const find = customerFinder(prisma, accountId, who);
  const limit = MAX_EXPORT_ROWS + 1;
  const [callIds, leadIds, contactIds, conversationIds, textIds, appointmentIds, eventIds, optOuts] =
    await Promise.all([
      find.calls(limit),
      find.leads(limit),
      find.secondaryContacts(limit),
      find.conversations(limit),
      find.texts(limit),
      find.appointments(limit),
      find.webhookEvents(limit),
      find.textOptOuts(limit),
    ]);
  const truncated: string[] = [];
  const cap = <T>(name: string, ids: T[]) => {
    if (ids.length <= MAX_EXPORT_ROWS) return ids;
    truncated.push(name);
    return ids.slice(0, MAX_EXPORT_ROWS);
  };
  const calls = await prisma.call.findMany({
    where: { accountId, id: { in: cap("calls", callIds) } },
    include: {
      turns: { orderBy: { id: "asc" } },
      listens: { orderBy: { id: "asc" } },
      charges: { orderBy: { id: "asc" } },
    },
    orderBy: { id: "asc" },
  });
  const leads = await prisma.lead.findMany({
    where: { accountId, id: { in: cap("leads", leadIds) } },
    include: { secondaryContacts: { orderBy: { id: "asc" } } },
    orderBy: { id: "asc" },
  });
  const secondaryContacts = await prisma.secondaryContact.findMany({
    where: { id: { in: cap("secondaryContacts", contactIds) }, lead: { accountId } },
    orderBy: { id: "asc" },
  });
  const conversations = await prisma.conversation.findMany({
    where: { accountId, id: { in: cap("conversations", conversationIds) } },
    include: { messages: { orderBy: { id: "asc" } } },
    orderBy: { createdAt: "asc" },
  });
  const texts = await prisma.textMessage.findMany({
    where: { accountId, id: { in: cap("texts", textIds) } },
    orderBy: { id: "asc" },
  });
  const appointments = await prisma.appointment.findMany({
    where: { accountId, id: { in: cap("appointments", appointmentIds) } },
    orderBy: { id: "asc" },
  });
  const webhookEvents = await prisma.webhookEvent.findMany({
    where: { accountId, id: { in: cap("webhookEvents", eventIds) } },
    include: { attemptsMade: { orderBy: { id: "asc" } } },
    orderBy: { id: "asc" },
  });
  const textOptOuts = optOuts.length
    ? await prisma.textOptOut.findMany({
        where: {
          accountId,
          OR: optOuts.map(({ accountNumber, customerNumber }) => ({ accountNumber, customerNumber })),
        },
      })
    : [];
  const recordedCallIds = calls.filter((call) => call.recordingUrl !== "").map((call) => call.id);
  const counts = {
    calls: calls.length,
    recordings: recordedCallIds.length,
    leads: leads.length,
    secondaryContacts: secondaryContacts.length,
    conversations: conversations.length,
    messages: conversations.reduce((sum, conversation) => sum + conversation.messages.length, 0),
    texts: texts.length,
    textOptOuts: textOptOuts.length,
    appointments: appointments.length,
    webhookEvents: webhookEvents.length,
  };
  const document = {
    format: EXPORT_FORMAT,
    exportedAt: exportedAt.toISOString(),
    accountId,
    identifier: { kind: who.kind, value: who.value },
    truncated,
    counts,
    calls: calls.map((call) => ({
      ...call,
      mediaStreamNonce: undefined,
      recordingFile: recordedCallIds.includes(call.id) ? `recordings/${call.id}.wav` : null,
    })),
    leads,
    secondaryContacts,
    conversations,
    texts,
    textOptOuts,
    appointments,
    webhookEvents,
  };
  return { document, counts, recordedCallIds };
}

/**
 * The zip archive: customer.json (deflated) and each call's recording as recordings/<call id>.wav
 * (stored: audio hardly compresses). Recordings a retention sweep removed meanwhile are left out.
 */
export async function buildArchive(
  records: ExportedRecords,
  accountId: number,
  recordings: RecordingSource,
): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  let zip!: Zip;
  const finished = new Promise<void>((resolve, reject) => {
    zip = new Zip((error, data, final) => {
      if (error) return reject(error);
      chunks.push(data);
      if (final) resolve();
    });
  });
  const json = new ZipDeflate("customer.json", { level: 6 });
  zip.add(json);
  json.push(strToU8(JSON.stringify(records.document, null, 2)), true);
  for (const callId of records.recordedCallIds) {
    const recording = await recordings.open(accountId, callId).catch(() => null);
    if (!recording) continue;
    const file = new ZipPassThrough(`recordings/${callId}.wav`);
    zip.add(file);
    if (recording.size > 0) for await (const chunk of recording.read(0, recording.size - 1)) file.push(chunk);
    file.push(new Uint8Array(0), true);
  }
  zip.end();
  await finished;
  return chunks;
}
