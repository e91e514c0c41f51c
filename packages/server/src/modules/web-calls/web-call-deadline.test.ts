import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { type FakeSpeech, startFakeSpeech } from "../../../test/support/fake-speech.ts";
import {
  freshDatabase,
  ManualClock,
  startTestApp,
  type TestAccount,
  type TestApp,
  testDatabaseKind,
} from "../../../test/support/test-app.ts";
import { WebCallClient } from "../../../test/support/web-call-client.ts";
import type { Assistant } from "../../generated/prisma/client.ts";
import { WEB_CALL_LIMITS } from "../../limits.ts";

const SITE = "https://shop.example";
const DEADLINE_TASK = "calls:web-connect-deadline";

let database: Awaited<ReturnType<typeof freshDatabase>>;
let t: TestApp;
/** A second instance on the same database (PostgreSQL); on PGlite, which one process owns, `t` itself. */
let other: TestApp;
let owner: TestAccount;
let assistant: Assistant;
let speech: FakeSpeech;
const eventually = <T>(check: () => Promise<T>) => vi.waitFor(check, { timeout: 30_000, interval: 50 });
const reload = (callId: number) => t.app.db.prisma.call.findUniqueOrThrow({ where: { id: callId } });
const ledgerOf = async (callId: number) =>
  (await t.app.db.prisma.ledgerEntry.findMany({ where: { callId }, orderBy: { id: "asc" } })).map((entry) => [
    entry.kind,
    entry.amount.toFixed(2),
  ]);
const balance = async () =>
  (await t.app.db.prisma.account.findUniqueOrThrow({ where: { id: owner.accountId } })).balance.toFixed(2);

/**
 * The call's deadline jobs still queued or running, read from the queue's own table: a job's row is
 * deleted once it ran to the end, so none left means every run is over (a run that failed stays,
 * waiting for its retry).
 */
async function deadlineJobs(callId: number): Promise<number> {
  const prisma = t.app.db.prisma;
  if (testDatabaseKind() === "pglite")
    return prisma.backgroundJob.count({
      where: { task: DEADLINE_TASK, payload: { path: ["callId"], equals: callId } },
    });
  const [row] = await prisma.$queryRaw<{ count: number }[]>`
    SELECT count(*)::integer AS "count" FROM graphile_worker._private_jobs AS jobs
    JOIN graphile_worker._private_tasks AS tasks ON tasks.id = jobs.task_id
    WHERE tasks.identifier = ${DEADLINE_TASK} AND jobs.payload->>'callId' = ${String(callId)}`;
  return row!.count;
}

async function startWebCall() {
  const started = await t.rest<{ call_id: number; token: string }>(
    "POST",
    `/api/widget/assistants/${assistant.uuid}/web-calls`,
    { headers: { origin: SITE } },
  );
  expect(started.status).toBe(201);
  return started.body;
}

const clock = new ManualClock(new Date());

beforeAll(async () => {
  database = await freshDatabase();
  // A web call starts only when its speech services can be reached.
  speech = await startFakeSpeech();
  const env = {
    VOXGATE_CALL_PRICE_PER_MINUTE: "0.10",
    OPENAI_STT_BASE_URL: speech.baseUrl,
    OPENAI_TTS_BASE_URL: speech.baseUrl,
  };
  t = await startTestApp({ clock, env, database: database.target });
  other =
    testDatabaseKind() === "postgres" ? await startTestApp({ clock, env, database: database.target }) : t;
  owner = await t.createAccount({ balance: "5" });
  assistant = await createAssistant(t, owner, { widgetSettings: { voice: true }, allowedOrigins: [SITE] });
});

afterAll(async () => {
  if (other !== t) await other?.close();
  await t?.close();
  await database?.drop();
  await speech?.close();
});

describe("a web call whose browser never connects", () => {
  it("fails at the connect deadline with its reserved minute refunded once, and a late browser is refused", async () => {
    expect(WEB_CALL_LIMITS.tokenSeconds + WEB_CALL_LIMITS.connectGraceSeconds).toBe(35);
    // The app's clock runs ten minutes behind the database's: the connect deadline (the token's 30 s
    // and 5 s of grace on that clock) is due for the job queue as soon as the call starts.
    clock.set(new Date(Date.now() - 10 * 60_000));
    const { call_id: callId, token } = await startWebCall();
    await eventually(async () => expect((await reload(callId)).status).toBe("failed"));
    // The refund follows the status change within the same run: its end is the job's row gone.
    await eventually(async () => expect(await deadlineJobs(callId)).toBe(0));
    expect(await reload(callId)).toMatchObject({ endReason: "The browser never connected.", duration: 0 });
    expect(await ledgerOf(callId)).toEqual([
      ["call_debit", "-0.10"],
      ["adjustment", "0.10"],
    ]);
    expect(await balance()).toBe("5.00");

    // The deadline's job again (a retry): once it ran, nothing more moved.
    await other.app.services.jobs.enqueue(DEADLINE_TASK, { callId });
    await eventually(async () => expect(await deadlineJobs(callId)).toBe(0));
    expect(await ledgerOf(callId)).toHaveLength(2);
    expect(await balance()).toBe("5.00");

    // The token is still within its 30 s on the app's clock: the call's end is what refuses it.
    const late = await WebCallClient.connect(`${t.url.replace(/^http/, "ws")}/widget/web-call`, token, {
      origin: SITE,
    });
    expect(await late.closed).toEqual({ code: 1008, reason: "call ended" });
    expect((await reload(callId)).status).toBe("failed");
  });

  it("is refunded once when the deadline's job runs several times at once, from two instances on PostgreSQL", async () => {
    // The deadline is 35 s away: until the runs below, the call waits for its browser.
    clock.set(new Date());
    const { call_id: callId } = await startWebCall();
    expect((await reload(callId)).status).toBe("initiated");
    // The keyed job brought forward (as a retry would be) and more runs beside it, due at once on
    // every worker of both instances: they race for the same initiated call.
    await Promise.all([
      t.app.services.jobs.enqueue(DEADLINE_TASK, { callId }, { key: `web-connect:${callId}` }),
      ...[t, other, t, other, other].map((app) => app.app.services.jobs.enqueue(DEADLINE_TASK, { callId })),
    ]);
    await eventually(async () => expect(await deadlineJobs(callId)).toBe(0));
    expect(await reload(callId)).toMatchObject({
      status: "failed",
      endReason: "The browser never connected.",
    });
    expect(await ledgerOf(callId)).toEqual([
      ["call_debit", "-0.10"],
      ["adjustment", "0.10"],
    ]);
    expect(await balance()).toBe("5.00");
  });
});
