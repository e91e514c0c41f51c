import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../test/fixtures/assistants.ts";
import { telephonyFixtures } from "../test/fixtures/telephony.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../test/support/fake-openai.ts";
import { subscribeSse, subscribeWs } from "../test/support/subscriptions.ts";
import type { TestAccount, TestApp } from "../test/support/test-app.ts";
import { startTestApp } from "../test/support/test-app.ts";

// PostgreSQL refuses both in text and jsonb; before the check they answered 500 after part of the work.
const NUL = "a\u0000b";
const LONE_HIGH = "a\uD83Db";
const LONE_LOW = "\uDE00b";
const REFUSED = "must not contain NUL characters or unpaired surrogates";

let t: TestApp;
let fake: FakeOpenAI;
let alice: TestAccount;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await startTestApp({
    model: fake,
    env: {
      OPENAI_MODEL: "fake-model",
      VOXGATE_REPLY_PRICE: "0.02",
      VOXGATE_REPLY_RATE_LIMIT_PER_MINUTE: "1000",
      VOXGATE_WIDGET_RATE_LIMIT_PER_MINUTE: "1000",
      VOXGATE_CONVERSATION_RATE_LIMIT_PER_MINUTE: "1000",
    },
  });
  alice = await t.createAccount({ balance: "1" });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});
afterEach(() => fake.reset());

const balance = async () =>
  (await t.app.db.prisma.account.findUniqueOrThrow({ where: { id: alice.accountId } })).balance.toFixed(4);

const CREATE_ASSISTANT = `mutation($input: CreateAssistantInput!) { createAssistant(input: $input) { id name systemPrompt } }`;

describe("strings PostgreSQL cannot store", () => {
  it("refuses them in GraphQL variables with VALIDATION_FAILED naming each field, storing nothing", async () => {
    const response = await t.gql(
      CREATE_ASSISTANT,
      { input: { name: NUL, systemPrompt: LONE_HIGH } },
      { token: alice.apiKey },
    );
    expect(response.status).toBe(200);
    expect(response.data ?? null).toBeNull();
    expect(response.errors).toHaveLength(1);
    expect(response.errors![0]!.extensions).toEqual({
      code: "VALIDATION_FAILED",
      fields: {
        name: [`The name field ${REFUSED}.`],
        systemPrompt: [`The system prompt field ${REFUSED}.`],
      },
    });
    expect(await t.app.db.prisma.assistant.count({ where: { accountId: alice.accountId } })).toBe(0);
  });

  it("refuses them in inline string literals, including escaped ones", async () => {
    const response = await t.gql(
      `mutation { createKnowledgebase(input: { name: "a\\u0000b", description: "ok" }) { id } }`,
      {},
      { token: alice.apiKey },
    );
    expect(response.errors![0]!.extensions).toEqual({
      code: "VALIDATION_FAILED",
      fields: { name: [`The name field ${REFUSED}.`] },
    });
    expect(await t.app.db.prisma.knowledgebase.count({ where: { accountId: alice.accountId } })).toBe(0);
  });

  it("accepts emoji and other characters outside the Basic Multilingual Plane", async () => {
    const name = "Café 🤖 𝄞 テスト";
    const response = await t.gql<{ createAssistant: { name: string; systemPrompt: string } }>(
      CREATE_ASSISTANT,
      { input: { name, systemPrompt: "👋🏽 hello" } },
      { token: alice.apiKey },
    );
    expect(response.errors).toBeUndefined();
    expect(response.data!.createAssistant).toMatchObject({ name, systemPrompt: "👋🏽 hello" });
    await t.app.db.prisma.assistant.deleteMany({ where: { accountId: alice.accountId } });
  });

  it("refuses them in lead variables, values and keys alike, with 422 over REST", async () => {
    const campaign = await telephonyFixtures(t).createCampaign(alice, { name: "Spring" });
    const create = (variables: Record<string, unknown>) =>
      t.rest<{ message: string; errors: Record<string, string[]> }>("POST", "/api/user/lead", {
        token: alice.apiKey,
        body: { phone_number: "+14155550123", campaign_id: campaign.id, variables },
      });

    const badValue = await create({ customer_name: LONE_LOW });
    expect(badValue.status).toBe(422);
    expect(badValue.body.errors).toEqual({
      "variables.customer_name": [`The customer name field ${REFUSED}.`],
    });

    const badKey = await create({ [NUL]: "Ada" });
    expect(badKey.status).toBe(422);
    expect(badKey.body.errors).toEqual({
      variables: [`The keys of the variables field ${REFUSED}.`],
    });
    expect(JSON.stringify(badKey.body)).not.toContain("\\u0000");
    expect(await t.app.db.prisma.lead.count({ where: { accountId: alice.accountId } })).toBe(0);

    const good = await create({ "prénom 👋": "Ada 🌸" });
    expect(good.status).toBe(201);

    const inQuery = await t.rest("GET", "/api/user/leads?status=new%00", { token: alice.apiKey });
    expect(inQuery).toMatchObject({
      status: 422,
      body: { errors: { status: [`The status field ${REFUSED}.`] } },
    });
    const inPath = await t.rest("GET", "/api/widget/assistants/abc%00");
    expect(inPath).toMatchObject({ status: 422, body: { errors: { uuid: [`The uuid field ${REFUSED}.`] } } });
  });

  it("refuses them in generate-reply before anything is stored, asked of the model or charged", async () => {
    const assistant = await createAssistant(t, alice);
    const before = await balance();
    const response = await t.rest<Record<string, unknown>>("POST", "/api/ai/generate-reply", {
      token: alice.apiKey,
      body: { assistant_id: assistant.id, customer_identifier: NUL, message: LONE_HIGH },
    });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({
      success: false,
      error_code: "VALIDATION_FAILED",
      errors: {
        customer_identifier: [`The customer identifier field ${REFUSED}.`],
        message: [`The message field ${REFUSED}.`],
      },
    });
    expect(fake.chatRequests).toHaveLength(0);
    expect(await t.app.db.prisma.conversation.count({ where: { assistantId: assistant.id } })).toBe(0);
    expect(await balance()).toBe(before);
  });

  it("refuses them in widget messages and conversation variables, over REST and GraphQL", async () => {
    const assistant = await createAssistant(t, alice);
    const refusedStart = await t.rest<Record<string, unknown>>(
      "POST",
      `/api/widget/assistants/${assistant.uuid}/conversations`,
      { body: { variables: { name: NUL } } },
    );
    expect(refusedStart.status).toBe(422);
    expect(await t.app.db.prisma.conversation.count({ where: { assistantId: assistant.id } })).toBe(0);

    const started = await t.rest<{ conversation_id: string }>(
      "POST",
      `/api/widget/assistants/${assistant.uuid}/conversations`,
      { body: {} },
    );
    expect(started.status).toBe(201);
    const conversationId = started.body.conversation_id;
    const before = await balance();

    const overRest = await t.rest("POST", `/api/conversations/${conversationId}/messages`, {
      body: { message: `hello ${NUL}` },
    });
    expect(overRest.status).toBe(422);
    expect(overRest.body).toEqual({ status: false, error: `The message field ${REFUSED}.` });

    const overGraphql = await t.gql(
      `mutation($input: SendWidgetMessageInput!) { sendWidgetMessage(input: $input) { reply } }`,
      { input: { conversationId, message: LONE_LOW } },
    );
    expect(overGraphql.errors![0]!.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      fields: { message: [`The message field ${REFUSED}.`] },
    });

    expect(fake.chatRequests).toHaveLength(0);
    expect(await t.app.db.prisma.message.count({ where: { conversationId } })).toBe(0);
    expect(await balance()).toBe(before);
  });

  it("refuses an uploaded file whose name holds a NUL character", async () => {
    const knowledgebase = await t.gql<{ createKnowledgebase: { id: number } }>(
      `mutation { createKnowledgebase(input: { name: "Handbook", description: "x" }) { id } }`,
      {},
      { token: alice.apiKey },
    );
    const id = knowledgebase.data!.createKnowledgebase.id;
    const form = new FormData();
    form.set("name", "Prices");
    form.set("type", "file");
    form.set("file", new File(["Opening hours: 9 to 5."], "prices\u0000.txt", { type: "text/plain" }));
    const response = await fetch(`${t.url}/api/user/knowledgebases/${id}/documents`, {
      method: "POST",
      headers: { authorization: `Bearer ${alice.apiKey}` },
      body: form,
    });
    expect(response.status).toBe(422);
    expect(((await response.json()) as { errors: unknown }).errors).toEqual({
      file: [`The file field ${REFUSED}.`],
    });
    expect(await t.app.db.prisma.document.count({ where: { knowledgebaseId: id } })).toBe(0);
  });

  it("refuses them in subscription arguments over WebSocket and SSE", async () => {
    const query = `subscription($id: ID!) { conversationMessageAdded(conversationId: $id) { id } }`;
    const ws = await subscribeWs(t.url, query, {
      connectionParams: { authorization: `Bearer ${alice.apiKey}` },
      variables: { id: NUL },
    });
    const overWs = await ws.next();
    expect(overWs.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      fields: { id: [`The id field ${REFUSED}.`] },
    });
    await ws.close();

    const sse = await subscribeSse(t.url, query, {
      headers: { authorization: `Bearer ${alice.apiKey}` },
      variables: { id: LONE_HIGH },
    });
    const overSse = await sse.next();
    expect(overSse.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      fields: { id: [`The id field ${REFUSED}.`] },
    });
    await sse.close();
  });
});
