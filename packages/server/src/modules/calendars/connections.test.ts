import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeCalCom, startFakeCalCom } from "../../../test/support/fake-calcom.ts";
import {
  type FakeGoogleCalendar,
  startFakeGoogleCalendar,
} from "../../../test/support/fake-google-calendar.ts";
import {
  type FakeMicrosoftGraph,
  startFakeMicrosoftGraph,
} from "../../../test/support/fake-microsoft-graph.ts";
import {
  PUBLIC_BASE_URL,
  startTestApp,
  type TestAccount,
  type TestApp,
} from "../../../test/support/test-app.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../../test/support/webhook-receiver.ts";
import { systemClock } from "../../clock.ts";
import { discardEvents } from "../../events.ts";
import { createLogger } from "../../logger.ts";
import { SecretBox } from "../../secret-box.ts";
import { createCalendars } from "./index.ts";

const secretsKey = randomBytes(32);
const CONNECTION_FIELDS =
  "id name provider url readUrls username eventTypeId status lastError checkedAt createdAt";
const START = `mutation ($provider: CalendarOAuthProvider!, $name: String!, $connectionId: Int) {
  startCalendarOAuth(provider: $provider, name: $name, connectionId: $connectionId) { authorizationUrl }
}`;
const CREATE_CONNECTION = `mutation ($input: CreateCalendarConnectionInput!) {
  createCalendarConnection(input: $input) { ${CONNECTION_FIELDS} }
}`;
const CREATE_TYPE = `mutation ($input: CreateAppointmentTypeInput!) { createAppointmentType(input: $input) { id } }`;
const SLOTS = `query ($id: Int!, $from: DateTime!, $to: DateTime!) {
  availableSlots(appointmentTypeId: $id, from: $from, to: $to) { start end }
}`;
// Monday 1 March 2027, in UTC.
const MONDAY = { from: "2027-03-01T00:00:00Z", to: "2027-03-02T00:00:00Z" };
const mornings = { mon: [{ start: "08:00", end: "12:00" }] };

describe("Cal.com, Google and Microsoft 365 connections through the API", () => {
  let google: FakeGoogleCalendar;
  let graph: FakeMicrosoftGraph;
  let calcom: FakeCalCom;
  let receiver: WebhookReceiver;
  let t: TestApp;
  let alice: TestAccount;
  let bob: TestAccount;

  beforeAll(async () => {
    [google, graph, calcom, receiver] = await Promise.all([
      startFakeGoogleCalendar(),
      startFakeMicrosoftGraph(),
      startFakeCalCom(),
      startWebhookReceiver(),
    ]);
    graph.oauth.signedInAs = "owner@contoso.example";
    t = await startTestApp({
      env: {
        VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1",
        VOXGATE_SECRETS_KEY: secretsKey.toString("base64"),
        ...google.env,
        ...graph.env,
        ...calcom.env,
      },
    });
    [alice, bob] = await Promise.all([t.createAccount(), t.createAccount()]);
    await t.app.services.assistants.create(alice, {
      name: "Front desk",
      isWebhookActive: true,
      webhookUrl: receiver.url,
    });
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([google?.close(), graph?.close(), calcom?.close(), receiver?.close()]);
  });

  const start = async (account: TestAccount, variables: Record<string, unknown>) => {
    const started = await t.gql<{ startCalendarOAuth: { authorizationUrl: string } }>(START, variables, {
      token: account.apiKey,
    });
    expect(started.errors).toBeUndefined();
    return started.data!.startCalendarOAuth.authorizationUrl;
  };
  /** The browser at the provider: the user signs in and is sent back to PUBLIC_BASE_URL's callback. */
  const consent = async (authorizationUrl: string) => {
    const answer = await fetch(authorizationUrl, { redirect: "manual" });
    expect(answer.status).toBe(302);
    const back = answer.headers.get("location")!;
    expect(back.startsWith(`${PUBLIC_BASE_URL}/oauth/calendar/callback?`)).toBe(true);
    return back.replace(PUBLIC_BASE_URL, t.url);
  };
  const callback = (url: string) => fetch(url, { redirect: "manual" });
  const signIn = async (account: TestAccount, variables: Record<string, unknown>) => {
    const response = await callback(await consent(await start(account, variables)));
    expect(response.status).toBe(303);
    const match = /\/console\/#\/calendars\/(\d+)$/.exec(response.headers.get("location") ?? "");
    expect(response.headers.get("location")!.startsWith(`${PUBLIC_BASE_URL}/console/`)).toBe(true);
    return Number(match![1]);
  };
  const connections = async (account: TestAccount) => {
    const listed = await t.gql<{ calendarConnections: Record<string, unknown>[] }>(
      `{ calendarConnections { ${CONNECTION_FIELDS} } }`,
      {},
      { token: account.apiKey },
    );
    return { listed, all: listed.data!.calendarConnections };
  };
  const appointmentType = async (connectionId: number) => {
    const created = await t.gql<{ createAppointmentType: { id: number } }>(
      CREATE_TYPE,
      {
        input: {
          connectionId,
          name: "Consultation",
          durationMinutes: 30,
          timezone: "UTC",
          businessHours: mornings,
          slotGranularityMinutes: 30,
          horizonDays: 366,
        },
      },
      { token: alice.apiKey },
    );
    expect(created.errors).toBeUndefined();
    return created.data!.createAppointmentType.id;
  };
  const slots = (typeId: number) =>
    t.gql<{ availableSlots: { start: string }[] }>(SLOTS, { id: typeId, ...MONDAY }, { token: alice.apiKey });
  const expireToken = (id: number, inMs: number) =>
    t.app.db.prisma.calendarConnection.update({
      where: { id },
      data: { tokenExpiresAt: new Date(Date.now() + inMs) },
    });
  const events = (type: string, connectionId: number) =>
    t.app.db.prisma.webhookEvent.findMany({
      where: { type, accountId: alice.accountId, streamKey: `calendar-connection:${connectionId}` },
    });

  it("connects Google by signing in (PKCE, single-use state) and never returns the tokens", async () => {
    const authorizationUrl = await start(alice, { provider: "google", name: "Google work" });
    const asked = new URL(authorizationUrl);
    expect(`${asked.origin}${asked.pathname}`).toBe(`${google.url}/o/oauth2/v2/auth`);
    expect(Object.fromEntries(asked.searchParams)).toMatchObject({
      client_id: google.oauth.clientId,
      redirect_uri: `${PUBLIC_BASE_URL}/oauth/calendar/callback`,
      response_type: "code",
      code_challenge_method: "S256",
      access_type: "offline",
      prompt: "consent",
      scope:
        "https://www.googleapis.com/auth/calendar.readonly https://www.googleapis.com/auth/calendar.events",
    });
    const back = await consent(authorizationUrl);
    const finished = await callback(back);
    expect(finished.status).toBe(303);
    const id = Number(/calendars\/(\d+)$/.exec(finished.headers.get("location")!)![1]);

    // The same redirect again (a replay, or a reload) is refused: the state was used.
    const replay = await callback(back);
    expect(replay.status).toBe(400);
    expect(replay.headers.get("content-type")).toContain("text/html");
    expect(await replay.text()).toContain("invalid_state");
    const forged = new URL(back);
    forged.searchParams.set("state", randomBytes(32).toString("base64url"));
    expect((await callback(forged.href)).status).toBe(400);
    expect((await callback(`${t.url}/oauth/calendar/callback`)).status).toBe(400);
    expect(google.oauth.grants.authorization_code).toBe(1);

    const { listed, all } = await connections(alice);
    expect(all.find((connection) => connection.id === id)).toMatchObject({
      name: "Google work",
      provider: "google",
      url: "primary",
      username: "owner@example.com",
      status: "active",
      eventTypeId: null,
    });
    expect((await connections(bob)).all).toEqual([]);
    const row = await t.app.db.prisma.calendarConnection.findUniqueOrThrow({ where: { id } });
    const box = new SecretBox(
      { dataDir: "/nonexistent", databaseUrl: undefined, secrets: { key: secretsKey, previousKeys: [] } },
      createLogger("silent"),
    );
    expect(google.oauth.accessTokens.has(box.open(row.sealedCredentials))).toBe(true);
    expect(google.oauth.refreshTokens.has(box.open(row.sealedRefreshToken!))).toBe(true);
    const tokens = [...google.oauth.accessTokens.keys(), ...google.oauth.refreshTokens.keys()];
    for (const token of tokens) {
      expect(JSON.stringify(row)).not.toContain(token);
      expect(JSON.stringify(listed)).not.toContain(token);
    }
  });

  it("refuses a sign-in that took too long or was declined, and one started for an unknown connection", async () => {
    const late = await consent(await start(alice, { provider: "google", name: "Late" }));
    await t.app.db.prisma.calendarOAuthState.updateMany({
      where: { accountId: alice.accountId },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const expired = await callback(late);
    expect(expired.status).toBe(400);
    expect(await expired.text()).toContain("expired_state");

    google.oauth.deny = true;
    try {
      const declined = await callback(await consent(await start(alice, { provider: "google", name: "No" })));
      expect(declined.status).toBe(400);
      expect(await declined.text()).toContain("did not grant access");
    } finally {
      google.oauth.deny = false;
    }
    // A server without Microsoft's OAuth client says what to configure.
    const config = t.app.config;
    const unconfigured = createCalendars(
      {
        config: {
          ...config,
          calendars: { ...config.calendars, microsoft: { ...config.calendars.microsoft, client: null } },
        },
        db: t.app.db,
        pubsub: t.app.pubsub,
        eventBus: t.app.eventBus,
        logger: t.app.logger,
      },
      { events: discardEvents, clock: systemClock },
    );
    await expect(
      unconfigured.calendarOAuth.start(alice.accountId, { provider: "microsoft", name: "X" }),
    ).rejects.toMatchObject({ extensions: { reason: "not_configured" } });
    const unknown = await t.gql(
      START,
      { provider: "google", name: "X", connectionId: 999_999 },
      { token: alice.apiKey },
    );
    expect(unknown.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND" });
    const wrongProvider = await t.gql(
      CREATE_CONNECTION,
      { input: { name: "G", provider: "google" } },
      { token: alice.apiKey },
    );
    expect(wrongProvider.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_FAILED" });
    expect(wrongProvider.errors?.[0]?.message).toContain("startCalendarOAuth");
  });

  it("refreshes Google's access token before it expires; a revoked grant breaks the connection once and tells the owner", async () => {
    const owner = "revoking@example.com";
    google.oauth.signedInAs = owner;
    const id = await signIn(alice, { provider: "google", name: "To revoke" });
    google.oauth.signedInAs = "owner@example.com";
    google.addEvent(owner, owner, "2027-03-01T09:00:00Z", "2027-03-01T10:00:00Z");
    const typeId = await appointmentType(id);
    const free = ["08:00", "08:30", "10:00", "10:30", "11:00", "11:30"].map(
      (time) => `2027-03-01T${time}:00.000Z`,
    );
    expect((await slots(typeId)).data?.availableSlots.map((slot) => slot.start)).toEqual(free);
    const refreshes = google.oauth.grants.refresh_token;

    // A minute before it expires, the token is refreshed before it is used.
    await expireToken(id, 60_000);
    expect((await slots(typeId)).data?.availableSlots.map((slot) => slot.start)).toEqual(free);
    expect(google.oauth.grants.refresh_token).toBe(refreshes + 1);
    const newest = [...google.oauth.accessTokens.keys()].at(-1);
    const lastQuery = google.requests.filter((request) => request.path.endsWith("/freeBusy")).at(-1)!;
    expect(lastQuery.headers.authorization).toBe(`Bearer ${newest}`);
    const row = await t.app.db.prisma.calendarConnection.findUniqueOrThrow({ where: { id } });
    expect(row.tokenExpiresAt!.getTime()).toBeGreaterThan(Date.now() + 30 * 60_000);

    // The owner removes Voxgate's access at Google: the next refresh is refused with invalid_grant.
    google.oauth.revoke(owner);
    await expireToken(id, -1000);
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await slots(typeId);
      expect(refused.errors?.[0]?.extensions).toMatchObject({
        code: "CALENDAR_CONNECTION_FAILED",
        reason: "revoked",
      });
    }
    const shown = (await connections(alice)).all.find((connection) => connection.id === id)!;
    expect(shown.status).toBe("broken");
    expect(shown.lastError).toContain("connect it again");
    const broken = await receiver.waitFor(
      (request) =>
        request.json.type === "calendar.connection_broken" && request.json.data.connection_id === id,
    );
    expect(broken.json.data).toMatchObject({
      name: "To revoke",
      provider: "google",
      account: owner,
      status: "broken",
      last_error: shown.lastError,
    });
    // Once per transition, however often the refusal is met.
    expect(await events("calendar.connection_broken", id)).toHaveLength(1);

    // Signing in again renews this connection's grant; with another account it does not.
    const other = await callback(
      await consent(await start(alice, { provider: "google", name: "x", connectionId: id })),
    );
    expect(other.status).toBe(400);
    expect(await other.text()).toContain("other_account");
    expect((await t.app.db.prisma.calendarConnection.findUniqueOrThrow({ where: { id } })).status).toBe(
      "broken",
    );
    const head = await fetch(`${t.url}/oauth/calendar/callback?state=x`, { method: "HEAD" });
    expect(head.status).toBe(405);
    google.oauth.signedInAs = owner;
    expect(await signIn(alice, { provider: "google", name: "ignored", connectionId: id })).toBe(id);
    google.oauth.signedInAs = "owner@example.com";
    expect((await connections(alice)).all.find((connection) => connection.id === id)).toMatchObject({
      status: "active",
      lastError: null,
      name: "To revoke",
    });
    await receiver.waitFor(
      (request) =>
        request.json.type === "calendar.connection_restored" && request.json.data.connection_id === id,
    );
    expect((await slots(typeId)).errors).toBeUndefined();
  });

  it("connects Microsoft 365, reads its schedule, and two instances refreshing at once keep a working refresh token", async () => {
    const id = await signIn(alice, { provider: "microsoft", name: "Outlook" });
    const authorize = graph.oauth.authorizations.at(-1)!;
    expect(authorize.get("scope")).toBe("offline_access User.Read Calendars.ReadWrite");
    expect((await connections(alice)).all.find((connection) => connection.id === id)).toMatchObject({
      provider: "microsoft",
      username: "owner@contoso.example",
      url: "primary",
      status: "active",
    });
    graph.addEvent("owner@contoso.example", "2027-03-01T08:00:00Z", "2027-03-01T11:00:00Z", "busy");
    const typeId = await appointmentType(id);
    expect((await slots(typeId)).data?.availableSlots.map((slot) => slot.start)).toEqual([
      "2027-03-01T11:00:00.000Z",
      "2027-03-01T11:30:00.000Z",
    ]);

    // Another instance (its own services over the same database) refreshes at the same moment.
    await expireToken(id, -1000);
    const other = createCalendars(
      {
        config: t.app.config,
        db: t.app.db,
        pubsub: t.app.pubsub,
        eventBus: t.app.eventBus,
        logger: t.app.logger,
      },
      { events: discardEvents, clock: systemClock },
    );
    const row = await t.app.db.prisma.calendarConnection.findUniqueOrThrow({ where: { id } });
    const before = graph.oauth.grants.refresh_token;
    const tokens = await Promise.all([
      t.app.services.calendarOAuth.accessToken(row),
      other.calendarOAuth.accessToken(row),
    ]);
    expect(graph.oauth.grants.refresh_token).toBe(before + 2);
    for (const token of tokens) expect(graph.oauth.ownerOf(token)).toBe("owner@contoso.example");
    const box = new SecretBox(
      { dataDir: "/nonexistent", databaseUrl: undefined, secrets: { key: secretsKey, previousKeys: [] } },
      createLogger("silent"),
    );
    const stored = await t.app.db.prisma.calendarConnection.findUniqueOrThrow({ where: { id } });
    const refreshToken = box.open(stored.sealedRefreshToken!);
    // The refresh token kept is one of the two new ones Microsoft issued, and it works.
    expect(refreshToken).not.toBe(box.open(row.sealedRefreshToken!));
    expect(graph.oauth.refreshTokens.get(refreshToken)).toMatchObject({ revoked: false });
    await expireToken(id, -1000);
    expect((await slots(typeId)).errors).toBeUndefined();
    expect(graph.oauth.grants.refresh_token).toBe(before + 3);
    const { listed } = await connections(alice);
    for (const token of [...graph.oauth.accessTokens.keys(), ...graph.oauth.refreshTokens.keys()]) {
      expect(JSON.stringify(listed)).not.toContain(token);
    }
  });

  it("connects a Cal.com event type with an API key, offers its slots, and breaks (and tells) when the key is revoked", async () => {
    const input = {
      name: "Cal.com",
      provider: "calcom",
      apiKey: calcom.apiKey,
      eventTypeId: calcom.eventType.id,
    };
    const wrongKey = await t.gql(
      CREATE_CONNECTION,
      { input: { ...input, apiKey: "cal_live_nope" } },
      { token: alice.apiKey },
    );
    expect(wrongKey.errors?.[0]?.extensions).toMatchObject({
      code: "CALENDAR_CONNECTION_FAILED",
      reason: "unauthorized",
    });
    expect(wrongKey.errors?.[0]?.message).toMatch(/^Cal\.com: /);
    const noType = await t.gql(
      CREATE_CONNECTION,
      { input: { ...input, eventTypeId: 1 } },
      { token: alice.apiKey },
    );
    expect(noType.errors?.[0]?.extensions).toMatchObject({ reason: "not_found", status: 404 });
    const noKey = await t.gql(
      CREATE_CONNECTION,
      { input: { ...input, apiKey: null } },
      { token: alice.apiKey },
    );
    expect(noKey.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_FAILED" });

    const created = await t.gql<{ createCalendarConnection: Record<string, unknown> }>(
      CREATE_CONNECTION,
      { input },
      { token: alice.apiKey },
    );
    expect(created.errors).toBeUndefined();
    const connection = created.data!.createCalendarConnection;
    expect(connection).toMatchObject({
      provider: "calcom",
      url: String(calcom.eventType.id),
      eventTypeId: calcom.eventType.id,
      username: "owner@cal.example",
      status: "active",
    });
    expect(JSON.stringify(created)).not.toContain(calcom.apiKey);
    expect(JSON.stringify((await connections(alice)).listed)).not.toContain(calcom.apiKey);
    const id = connection.id as number;

    // Business hours 08:00-12:00 on top of Cal.com's own 09:00-17:00.
    const typeId = await appointmentType(id);
    expect((await slots(typeId)).data?.availableSlots.map((slot) => slot.start)).toEqual(
      ["09:00", "09:30", "10:00", "10:30", "11:00", "11:30"].map((time) => `2027-03-01T${time}:00.000Z`),
    );

    const oldKey = calcom.apiKey;
    calcom.apiKey = `cal_live_${randomBytes(16).toString("hex")}`;
    const refused = await slots(typeId);
    expect(refused.errors?.[0]?.extensions).toMatchObject({ reason: "unauthorized", status: 401 });
    await receiver.waitFor(
      (request) =>
        request.json.type === "calendar.connection_broken" && request.json.data.connection_id === id,
    );
    await slots(typeId);
    expect(await events("calendar.connection_broken", id)).toHaveLength(1);

    const UPDATE = `mutation ($id: Int!, $input: UpdateCalendarConnectionInput!) {
      updateCalendarConnection(id: $id, input: $input) { id status lastError }
    }`;
    const stale = await t.gql(UPDATE, { id, input: { apiKey: oldKey } }, { token: alice.apiKey });
    expect(stale.errors?.[0]?.extensions).toMatchObject({ reason: "unauthorized" });
    const notApplicable = await t.gql(UPDATE, { id, input: { password: "x" } }, { token: alice.apiKey });
    expect(notApplicable.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_FAILED" });
    const repaired = await t.gql(UPDATE, { id, input: { apiKey: calcom.apiKey } }, { token: alice.apiKey });
    expect(repaired.data).toEqual({ updateCalendarConnection: { id, status: "active", lastError: null } });
    expect(JSON.stringify(repaired)).not.toContain(calcom.apiKey);
    await receiver.waitFor(
      (request) =>
        request.json.type === "calendar.connection_restored" && request.json.data.connection_id === id,
    );
    expect((await slots(typeId)).errors).toBeUndefined();
  });
});
