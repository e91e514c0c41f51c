import type { App } from "../../../server/src/app.ts";

/**
 * A small history for the overview screen, written straight to the database as the voice engine,
 * the evaluation job and the booking functions would have left it: yesterday, four calls of two
 * assistants (one unanswered, one transferred), evaluations, measured turns, a chat and a booking.
 * The figures it makes are spelled out in insights.test.ts.
 */
export async function seedInsightsHistory(
  app: App,
  accountId: number,
  [first, second]: number[],
): Promise<void> {
  const prisma = app.db.prisma;
  const yesterday = Date.now() - 86_400_000;
  const at = (minutes: number) => new Date(yesterday + minutes * 60_000);
  const calls: {
    assistantId: number;
    status: "completed" | "no_answer" | "ended_by_customer";
    duration: number;
    totalCost: string;
    evaluation?: { success?: boolean; score?: number };
    transferState?: string;
    latencies: number[];
  }[] = [
    {
      assistantId: first!,
      status: "completed",
      duration: 120,
      totalCost: "0.5",
      evaluation: { success: true },
      latencies: [400, 600],
    },
    { assistantId: first!, status: "no_answer", duration: 0, totalCost: "0", latencies: [] },
    {
      assistantId: first!,
      status: "ended_by_customer",
      duration: 60,
      totalCost: "0.25",
      evaluation: { score: 4 },
      transferState: "connected",
      latencies: [800],
    },
    {
      assistantId: second!,
      status: "completed",
      duration: 180,
      totalCost: "0.75",
      evaluation: { score: 9 },
      latencies: [1000],
    },
  ];
  for (const [index, call] of calls.entries()) {
    const createdAt = at(index * 10);
    const created = await prisma.call.create({
      data: {
        accountId,
        assistantId: call.assistantId,
        type: "inbound",
        status: call.status,
        duration: call.duration,
        totalCost: call.totalCost,
        createdAt,
        startedAt: call.status === "no_answer" ? null : createdAt,
        endedAt: new Date(createdAt.getTime() + call.duration * 1000),
        transferState: call.transferState ?? "",
        ...(call.evaluation
          ? { evaluation: call.evaluation, evaluationStatus: "done", evaluatedAt: createdAt }
          : {}),
      },
    });
    for (const [turn, ms] of call.latencies.entries()) {
      const speechEndedAt = new Date(createdAt.getTime() + (turn + 1) * 5000);
      await prisma.callTurn.create({
        data: {
          callId: created.id,
          accountId,
          speaker: "assistant",
          text: "Of course.",
          heardText: "Of course.",
          startMs: (turn + 1) * 5000,
          endMs: (turn + 1) * 5000 + 1000,
          speechEndedAt,
          firstAudioAt: new Date(speechEndedAt.getTime() + ms),
          createdAt: speechEndedAt,
        },
      });
    }
  }
  await prisma.conversation.create({
    data: { accountId, assistantId: first!, channel: "widget", createdAt: at(5) },
  });
  await prisma.appointment.create({
    data: {
      accountId,
      assistantId: second!,
      appointmentTypeId: 0,
      appointmentTypeName: "Visit",
      timezone: "UTC",
      connectionId: 0,
      provider: "caldav",
      externalId: `history-${accountId}`,
      startsAt: at(60 * 48),
      endsAt: at(60 * 48 + 30),
      customerName: "Ada Lovelace",
      idempotencyKey: `history-${accountId}`,
      createdAt: at(35),
    },
  });
}
