import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { ManualClock, startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { WebCallClient } from "../../../test/support/web-call-client.ts";
import type { Assistant } from "../../generated/prisma/client.ts";
import { WEB_CALL_LIMITS } from "../../limits.ts";

const SITE = "https://shop.example";

let t: TestApp;
let owner: TestAccount;
let assistant: Assistant;
const eventually = <T>(check: () => Promise<T>) => vi.waitFor(check, { timeout: 30_000, interval: 50 });
const reload = (callId: number) => t.app.db.prisma.call.findUniqueOrThrow({ where: { id: callId } });
const ledgerOf = async (callId: number) =>
  (await t.app.db.prisma.ledgerEntry.findMany({ where: { callId }, orderBy: { id: "asc" } })).map((entry) => [
    entry.kind,
    entry.amount.toFixed(2),
  ]);
const balance = async () =>
  (await t.app.db.prisma.account.findUniqueOrThrow({ where: { id: owner.accountId } })).balance.toFixed(2);

async function startWebCall() {
  const started = await t.rest<{ call_id: number; token: string }>(
    "POST",
    `/api/widget/assistants/${assistant.uuid}/web-calls`,
    { headers: { origin: SITE } },
  );
  expect(started.status).toBe(201);
  return started.body;
}

// The app's clock runs ten minutes behind the database's: the connect deadline (the token's 30 s
// and 5 s of grace on that clock) is due for the job queue as soon as the call starts.
const clock = new ManualClock(new Date(Date.now() - 10 * 60_000));

beforeAll(async () => {
  t = await startTestApp({ clock, env: { VOXGATE_CALL_PRICE_PER_MINUTE: "0.10" } });
  owner = await t.createAccount({ balance: "5" });
  assistant = await createAssistant(t, owner, { widgetSettings: { voice: true }, allowedOrigins: [SITE] });
});

afterAll(async () => {
  await t?.close();
});

describe("a web call whose browser never connects", () => {
  it("fails at the connect deadline with its reserved minute refunded once, and a late browser is refused", async () => {
    expect(WEB_CALL_LIMITS.tokenSeconds + WEB_CALL_LIMITS.connectGraceSeconds).toBe(35);
    const { call_id: callId, token } = await startWebCall();
    await eventually(async () => expect((await reload(callId)).status).toBe("failed"));
    expect(await reload(callId)).toMatchObject({ endReason: "The browser never connected.", duration: 0 });
    expect(await ledgerOf(callId)).toEqual([
      ["call_debit", "-0.10"],
      ["adjustment", "0.10"],
    ]);
    expect(await balance()).toBe("5.00");

    // The deadline's job again (a retry, another instance): nothing more moves.
    await t.app.services.jobs.enqueue("calls:web-connect-deadline", { callId });
    const sentinel = await startWebCall();
    await eventually(async () => expect((await reload(sentinel.call_id)).status).toBe("failed"));
    expect(await ledgerOf(callId)).toHaveLength(2);
    expect(await balance()).toBe("5.00");

    // The token is still within its 30 s on the app's clock: the call's end is what refuses it.
    const late = await WebCallClient.connect(`${t.url.replace(/^http/, "ws")}/widget/web-call`, token, {
      origin: SITE,
    });
    expect(await late.closed).toEqual({ code: 1008, reason: "call ended" });
    expect((await reload(callId)).status).toBe("failed");
  });
});
