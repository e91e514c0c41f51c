import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";

/** Two attempts, milliseconds apart, and a model that gets a fifth of a second. */
const ENV = {
  VOXGATE_EVALUATION_MAX_ATTEMPTS: "2",
  VOXGATE_EVALUATION_RETRY_BASE_MS: "10",
  VOXGATE_EVALUATION_TIMEOUT_MS: "200",
};

const SCHEMA = [
  { name: "interested", type: "bool", description: "Wants a demo" },
  { name: "next_step", type: "string", description: "What happens next" },
  { name: "seats", type: "integer", description: "Seats mentioned" },
];

describe("post-call evaluation", () => {
  let t: TestApp;
  let model: FakeOpenAI;
  let owner: TestAccount;
  let assistantId: number;

  beforeAll(async () => {
    model = await startFakeOpenAI();
    t = await startTestApp({ model, env: ENV });
    owner = await t.createAccount();
    const assistant = await t.app.services.assistants.create(owner, {
      name: "Evaluated",
      postCallEvaluation: true,
      postCallSchema: SCHEMA,
    });
    assistantId = assistant.id;
  });
  afterAll(async () => {
    await t?.close();
    await model?.close();
  });

  /** Runs a web call with a short conversation to its end and waits for its evaluation to settle. */
  async function endedCall() {
    const call = await t.app.services.callStarts.start(owner.accountId, { assistantId, type: "web" });
    const settled = t.app.pubsub.subscribe("call:evaluated", owner.accountId)[Symbol.asyncIterator]();
    await t.app.services.callLifecycle.transition(call.id, "in-progress");
    await t.app.services.callAnnotations.transcriptLine(call.id, {
      speaker: "assistant",
      text: "Hello, would you like a demo?",
    });
    await t.app.services.callAnnotations.transcriptLine(call.id, {
      speaker: "customer",
      text: "Yes, for 12 seats, next Tuesday.",
    });
    await t.app.services.callLifecycle.transition(call.id, "completed");
    for (;;) {
      const { value } = await settled.next();
      if (value?.callId === call.id) break;
    }
    await settled.return?.();
    const read = await t.gql<{
      call: { evaluation: unknown; evaluationStatus: string; evaluationError: string };
    }>(
      "query ($id: Int!) { call(id: $id) { evaluation evaluationStatus evaluationError } }",
      { id: call.id },
      { token: owner.apiKey },
    );
    return read.data!.call;
  }

  it("stores a result shaped by the assistant's schema, asked for with a strict JSON schema", async () => {
    model.reset();
    model.enqueue({ content: JSON.stringify({ interested: true, next_step: "Demo on Tuesday", seats: 12 }) });
    const call = await endedCall();
    expect(call).toEqual({
      evaluation: { interested: true, next_step: "Demo on Tuesday", seats: 12 },
      evaluationStatus: "done",
      evaluationError: "",
    });
    const [request] = model.chatRequests;
    expect(request!.response_format).toMatchObject({
      type: "json_schema",
      json_schema: {
        strict: true,
        schema: {
          type: "object",
          properties: {
            interested: { type: "boolean" },
            next_step: { type: "string" },
            seats: { type: "integer" },
          },
          required: ["interested", "next_step", "seats"],
          additionalProperties: false,
        },
      },
    });
    expect(request!.messages.at(-1)?.content).toContain("12 seats");
    // REST shows it in the spec's `evaluation` field.
    const rest = await t.rest<{ data: { evaluation: unknown }[] }>("GET", "/api/user/calls", {
      token: owner.apiKey,
    });
    expect(rest.body.data[0]?.evaluation).toEqual({
      interested: true,
      next_step: "Demo on Tuesday",
      seats: 12,
    });
  });

  it("retries a model that answers invalid JSON, then records the failure", async () => {
    model.reset();
    model.enqueue({ content: "Sure! The customer was interested." }, { content: "{not json" });
    const call = await endedCall();
    expect(call).toMatchObject({ evaluationStatus: "failed", evaluation: {} });
    expect(call.evaluationError).toContain("not valid JSON");
    expect(model.chatRequests).toHaveLength(2);
  });

  it("records a model that does not answer in time as a failure, not a stuck call", async () => {
    model.reset();
    model.enqueue({ content: "{}", delayMs: 1_000 }, { content: "{}", delayMs: 1_000 });
    const call = await endedCall();
    expect(call.evaluationStatus).toBe("failed");
    expect(call.evaluationError).toContain("did not answer in time");
  });

  it("refuses a result that does not follow the schema", async () => {
    model.reset();
    model.enqueue({ content: '{"interested":"yes"}' }, { content: '{"interested":"yes"}' });
    const call = await endedCall();
    expect(call.evaluationError).toContain("does not follow the schema");
  });

  it("evaluates a chat conversation on demand with the spec's sample keys when the schema is empty", async () => {
    model.reset();
    const plain = await t.app.services.assistants.create(owner, { name: "Chat" });
    const conversation = await t.app.services.conversations.startTest(owner.accountId, {
      assistantId: plain.id,
    });
    await t.app.services.conversations.sendTestMessage(owner.accountId, {
      conversationId: conversation.id,
      message: "I love it",
    });
    model.enqueue({
      content: JSON.stringify({ sentiment: "positive", outcome: "Happy customer", score: 9 }),
    });
    const MUTATION =
      "mutation ($id: String!) { evaluateConversation(id: $id) { conversationId evaluation } }";
    const result = await t.gql<{ evaluateConversation: { evaluation: unknown } }>(
      MUTATION,
      { id: conversation.id },
      { token: owner.apiKey },
    );
    expect(result.data?.evaluateConversation.evaluation).toEqual({
      sentiment: "positive",
      outcome: "Happy customer",
      score: 9,
    });
    expect(model.chatRequests.at(-1)?.messages.at(-1)?.content).toContain("Customer: I love it");
    const stranger = await t.createAccount();
    const foreign = await t.gql(MUTATION, { id: conversation.id }, { token: stranger.apiKey });
    expect(foreign.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });
});
