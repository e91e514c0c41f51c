import { Validator } from "@seriousme/openapi-schema-validator";
import { routes } from "@voxgate/rest-compat";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "./fixtures/assistants.ts";
import { createKnowledgebase } from "./fixtures/knowledge.ts";
import { telephonyFixtures, uniqueUsNumber } from "./fixtures/telephony.ts";
import { echoResponder, type FakeOpenAI, startFakeOpenAI } from "./support/fake-openai.ts";
import { type RunningRadicale, startRadicale } from "./support/radicale.ts";
import { PUBLIC_BASE_URL, startTestApp, type TestAccount, type TestApp } from "./support/test-app.ts";

// biome-ignore lint/suspicious/noExplicitAny: JSON answers walked by path; the schemas check their shape
type Json = Record<string, any>;

/** The served document, checked by an OpenAPI 3.1 validator, then each route's example sent to the server. */
describe("the OpenAPI document of the REST API", () => {
  let t: TestApp;
  let model: FakeOpenAI;
  let owner: TestAccount;
  let spec: Json;
  let radicale: RunningRadicale;
  /** Per route: what replaces the example's ids with objects this test created. */
  const fill: Record<string, { params?: Json; body?: Json; query?: Json; token?: string }> = {};

  beforeAll(async () => {
    model = await startFakeOpenAI();
    model.respondWith(echoResponder);
    radicale = await startRadicale({ owner: "calendar-password" });
    t = await startTestApp({
      model,
      env: {
        VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1",
        VOXGATE_SECRETS_KEY: Buffer.alloc(32, 7).toString("base64"),
      },
    });
    owner = await t.createAccount({ balance: "50" });
    const fixtures = telephonyFixtures(t);
    const number = await fixtures.addNumber(owner);
    const spareNumber = await fixtures.addNumber(owner);
    const assistant = await createAssistant(t, owner, {
      phoneNumberId: number.id,
      widgetSettings: { voice: true },
    });
    const campaign = await fixtures.createCampaign(owner);
    const knowledgebaseId = await createKnowledgebase(t, owner.apiKey);
    const conversation = await t.rest<Json>(
      "POST",
      `/api/widget/assistants/${assistant.uuid}/conversations`,
      {
        body: {},
      },
    );
    const spare = await t.rest<Json>("POST", "/api/user/api-keys", {
      token: owner.apiKey,
      body: { name: "spare" },
    });
    const keys = await t.rest<Json>("GET", "/api/user/api-keys", { token: owner.apiKey });
    const spareId = keys.body.api_keys.find((key: Json) => key.name === spare.body.api_key.name).id;
    const login = await t.rest<Json>("POST", "/api/login", {
      body: { email: owner.email, password: owner.password },
    });

    // Appointments: a calendar open every hour of every day, one booking to show, move and cancel.
    const connection = await t.app.services.calendars.createConnection(owner.accountId, {
      name: "Calendar",
      provider: "caldav",
      url: await radicale.makeCalendar("owner", "bookings"),
      username: "owner",
      password: "calendar-password",
    });
    const allDay = [{ start: "00:00", end: "24:00" }];
    const appointmentType = await t.app.services.calendars.createAppointmentType(owner.accountId, {
      connectionId: connection.id,
      name: "Call",
      durationMinutes: 60,
      slotGranularityMinutes: 60,
      timezone: "UTC",
      businessHours: Object.fromEntries(
        ["sun", "mon", "tue", "wed", "thu", "fri", "sat"].map((day) => [day, allDay]),
      ),
    });
    const hourAhead = (days: number) =>
      new Date(Math.ceil((Date.now() + days * 86_400_000) / 3_600_000) * 3_600_000).toISOString();
    const appointment = await t.app.services.appointments.book(owner.accountId, {
      appointmentTypeId: appointmentType.id,
      startsAt: new Date(hourAhead(8)),
      customerName: "Ada Lovelace",
    });

    const customerDataJob = await t.app.services.customerData.requestExport(
      { accountId: owner.accountId, requestedBy: "cli" },
      { phoneNumber: uniqueUsNumber() },
    );
    Object.assign(fill, {
      "POST /user/appointments": {
        body: { appointment_type_id: appointmentType.id, starts_at: hourAhead(7) },
      },
      "GET /user/appointments/{id}": { params: { id: appointment.id } },
      "POST /user/appointments/{id}/reschedule": {
        params: { id: appointment.id },
        body: { starts_at: hourAhead(9) },
      },
      "POST /user/appointments/{id}/cancel": { params: { id: appointment.id } },
      "POST /login": { body: { email: owner.email, password: owner.password } },
      "POST /logout": { token: login.body.token },
      "DELETE /user/api-keys/{id}": { params: { id: spareId } },
      "POST /ai/generate-reply": { body: { assistant_id: assistant.id } },
      "POST /user/make_call": { body: { assistant_id: assistant.id, phone_number: uniqueUsNumber() } },
      "GET /user/leads": { query: { campaign_id: String(campaign.id) } },
      "POST /user/lead": { body: { campaign_id: campaign.id, phone_number: uniqueUsNumber() } },
      "DELETE /user/phone-numbers/{id}": { params: { id: spareNumber.id } },
      "GET /widget/assistants/{uuid}": { params: { uuid: assistant.uuid } },
      "POST /widget/assistants/{uuid}/conversations": { params: { uuid: assistant.uuid } },
      "POST /widget/assistants/{uuid}/web-calls": { params: { uuid: assistant.uuid } },
      "GET /conversations/{uuid}/messages": { params: { uuid: conversation.body.conversation_id } },
      "POST /conversations/{uuid}/messages": { params: { uuid: conversation.body.conversation_id } },
      "POST /user/customer-data/export": { body: { phone_number: uniqueUsNumber() } },
      "POST /user/customer-data/erase": { body: { phone_number: uniqueUsNumber() } },
      "GET /user/customer-data/jobs/{id}": { params: { id: customerDataJob.id } },
      // As an erasure's appointments step records a Cal.com booking it cannot edit.
      "POST /user/customer-data/events-left/{id}/handled": {
        params: {
          id: (
            await t.app.db.prisma.erasureEventLeft.create({
              data: {
                accountId: owner.accountId,
                jobId: customerDataJob.id,
                appointmentId: appointment.id,
                connectionId: 1,
                provider: "calcom",
                externalId: "booking-uid",
                startsAt: new Date(),
                reason: "PROVIDER_CANNOT_EDIT",
              },
            })
          ).id,
        },
      },
    });
    for (const route of routes.filter((candidate) => candidate.path.includes("{knowledgebaseId}"))) {
      fill[`${route.method} ${route.path}`] = { params: { knowledgebaseId } };
    }
    spec = (await t.rest<Json>("GET", "/api/openapi.json")).body;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await model?.close();
    await radicale?.stop();
  });

  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(structuredClone(spec));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(spec.openapi).toBe("3.1.0");
    expect(spec.servers).toEqual([{ url: `${PUBLIC_BASE_URL}/api` }]);
  });

  it("documents every route of the table, with its credential requirement", () => {
    const documented = Object.entries(spec.paths).flatMap(([path, item]) =>
      Object.keys(item as Json).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(routes.map((route) => `${route.method} ${route.path}`).sort());
    for (const route of routes) {
      const operation = spec.paths[route.path][route.method.toLowerCase()];
      expect(operation.summary).toBeTruthy();
      expect(operation.security, route.path).toEqual(route.public ? [] : undefined);
      if (!route.public) expect(operation.responses["401"], route.path).toBeDefined();
    }
  });

  it("answers an index at /api and the reference page at /api/docs, which reads the document", async () => {
    const index = await t.rest<Json>("GET", "/api");
    expect(index.status).toBe(200);
    expect(index.body).toMatchObject({
      docs: `${PUBLIC_BASE_URL}/api/docs`,
      openapi: `${PUBLIC_BASE_URL}/api/openapi.json`,
    });
    const page = await fetch(`${t.url}/api/docs`);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain(`"${PUBLIC_BASE_URL}/api/openapi.json"`);
    // Offline: nothing is loaded from another host.
    expect(html).not.toMatch(/<(script|link)[^>]+(src|href)=["']https?:/);
  });

  // Sent in table order: a document is created before it is read, changed and deleted.
  it("answers each documented example as its schema says", async () => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: "spec", components: spec.components });
    const refs = (schema: unknown) =>
      JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"spec#/components'));
    let documentId: number | undefined;
    const answers: string[] = [];
    for (const route of routes) {
      const key = `${route.method} ${route.path}`;
      const operation = spec.paths[route.path][route.method.toLowerCase()];
      const example = route.doc.example;
      const extra = fill[key] ?? {};
      const params: Json = { ...example.params, ...(documentId ? { documentId } : {}), ...extra.params };
      const query = new URLSearchParams({ ...example.query, ...extra.query });
      const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => String(params[name]));
      const body = example.body === undefined ? undefined : { ...(example.body as Json), ...extra.body };
      const response = await t.rest<Json>(route.method, `/api${path}${query.size ? `?${query}` : ""}`, {
        token: route.public ? undefined : (extra.token ?? owner.apiKey),
        body,
      });
      answers.push(`${key} → ${response.status}`);
      const expected = String(route.doc.response.status ?? 200);
      expect(`${key} → ${response.status}`, JSON.stringify(response.body)).toBe(`${key} → ${expected}`);
      const schema = operation.responses[expected].content["application/json"].schema;
      const valid = ajv.validate(refs(schema), response.body);
      expect(valid ? [] : ajv.errors, `${key}: ${JSON.stringify(response.body)}`).toEqual([]);
      if (key === "POST /user/knowledgebases/{knowledgebaseId}/documents") documentId = response.body.data.id;
    }
    expect(answers).toHaveLength(routes.length);
  });

  it("would notice an answer that drifted from its schema", () => {
    const ajv = new Ajv2020({ strict: false });
    const schema = spec.paths["/user/api-keys"].get.responses["200"].content["application/json"].schema;
    expect(
      ajv.validate(schema, { api_keys: [{ id: 1, name: "x", created_at: "yesterday", last_used_at: null }] }),
    ).toBe(false);
  });
});
