import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures } from "../../../test/fixtures/telephony.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { ASSISTANT_DEFAULTS } from "./assistant-rules.ts";

const FORMAT_A = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every field of the spec's assistant table. */
const SPEC_FIELDS = [
  "id",
  "user_id",
  "phone_number_id",
  "engine_id",
  "synthesizer_id",
  "transcriber_id",
  "voice_id",
  "instance_id",
  "name",
  "variables",
  "post_call_evaluation",
  "fillers",
  "post_call_schema",
  "tools",
  "is_webhook_active",
  "webhook_url",
  "inbound_webhook_url",
  "language",
  "type",
  "status",
  "max_duration",
  "record",
  "initial_message",
  "system_prompt",
  "flows_platform_id",
  "timezone",
  "created_at",
  "updated_at",
  "deleted_at",
  "max_silence_duration",
  "reengagement_interval",
  "end_call_on_voicemail",
  "llm_temperature",
  "voice_stability",
  "voice_similarity",
  "speech_speed",
  "ambient_sound_volume",
  "allow_interruptions",
  "enable_noise_cancellation",
  "wait_for_customer",
  "endpoint_sensitivity",
  "interrupt_sensitivity",
  "endpoint_type",
  "mode",
  "language_id",
  "transcriber_provider_id",
  "synthesizer_provider_id",
  "llm_model_id",
  "multimodal_model_id",
  "ambient_sound",
  "uuid",
  "send_webhook_only_on_completed",
  "include_recording_in_webhook",
  "filler_config",
  "knowledgebase_id",
  "knowledgebase_mode",
  "min_interrupt_words",
  "widget_settings",
];

interface Envelope<Item> {
  current_page: number;
  data: Item[];
  from: number | null;
  to: number | null;
  per_page: number;
  total: number;
  last_page: number;
  next_page_url: string | null;
}

let t: TestApp;
let alice: TestAccount;
let bob: TestAccount;
let fixtures: ReturnType<typeof telephonyFixtures>;
let ava: number;
let yui: number;

const CREATE = `mutation($input: CreateAssistantInput!) { createAssistant(input: $input) { id } }`;
const UPDATE = `mutation($id: Int!, $input: UpdateAssistantInput!) { updateAssistant(id: $id, input: $input) { id name voiceId phoneNumberId llmTemperature } }`;

beforeAll(async () => {
  t = await startTestApp();
  [alice, bob] = await Promise.all([t.createAccount(), t.createAccount()]);
  fixtures = telephonyFixtures(t);
  const voice = (name: string) =>
    t.app.db.prisma.voice.findFirstOrThrow({ where: { name, accountId: null } });
  ava = (await voice("Ava")).id;
  yui = (await voice("Yui")).id;
});
afterAll(() => t?.close());

const listAssistants = (account: TestAccount, query = "") =>
  t.rest<Envelope<Record<string, unknown>>>("GET", `/api/user/assistants/get${query}`, {
    token: account.apiKey,
  });

describe("creating and listing assistants", () => {
  it("shows every field of the spec with its exact JSON type over REST", async () => {
    const account = await t.createAccount();
    const number = await fixtures.addNumber(account);
    const knowledgebase = await t.app.db.prisma.knowledgebase.create({
      data: { accountId: account.accountId, name: "FAQ" },
    });
    const created = await t.gql<{ createAssistant: { id: number } }>(
      CREATE,
      {
        input: {
          name: "Outbound sales",
          type: "outbound",
          mode: "pipeline",
          voiceId: ava,
          phoneNumberId: number.id,
          knowledgebaseId: knowledgebase.id,
          knowledgebaseMode: "hybrid",
          variables: { company: "Acme" },
          postCallSchema: [{ name: "interested", type: "bool", description: "Wants a demo" }],
          tools: [{ type: "webhook", name: "book" }],
          fillerConfig: { neutral: ["Hmm"], question: ["Let me check"] },
          widgetSettings: { theme: "dark", color: "#ff0000", position: "bottom-left" },
          llmTemperature: "0.7",
          speechSpeed: 1.25,
          endCallOnVoicemail: true,
          timezone: "Europe/Paris",
          webhookUrl: "https://hooks.example.com/calls",
          maxDuration: 900,
        },
      },
      { token: account.apiKey },
    );
    expect(created.errors).toBeUndefined();
    const list = await listAssistants(account);
    expect(list.status).toBe(200);
    const assistant = list.body.data[0]!;
    expect(Object.keys(assistant).sort()).toEqual([...SPEC_FIELDS].sort());
    expect(assistant).toMatchObject({
      id: created.data!.createAssistant.id,
      user_id: account.userId,
      phone_number_id: number.id,
      voice_id: ava,
      knowledgebase_id: knowledgebase.id,
      engine_id: null,
      name: "Outbound sales",
      type: "outbound",
      status: "active",
      mode: "pipeline",
      variables: { company: "Acme" },
      post_call_schema: [{ name: "interested", type: "bool", description: "Wants a demo" }],
      tools: [{ type: "webhook", name: "book" }],
      filler_config: { neutral: ["Hmm"], negative: [], positive: [], question: ["Let me check"] },
      widget_settings: { theme: "dark", color: "#ff0000", position: "bottom-left" },
      llm_temperature: "0.70",
      voice_stability: "0.50",
      voice_similarity: "0.75",
      speech_speed: "1.25",
      ambient_sound_volume: "0.50",
      end_call_on_voicemail: 1,
      endpoint_sensitivity: 0.5,
      endpoint_type: "vad",
      ambient_sound: "none",
      timezone: "Europe/Paris",
      webhook_url: "https://hooks.example.com/calls",
      inbound_webhook_url: null,
      max_duration: 900,
      record: false,
      deleted_at: null,
      knowledgebase_mode: "hybrid",
    });
    expect(assistant.uuid).toMatch(UUID);
    expect(assistant.created_at).toMatch(FORMAT_A);
    expect(assistant.updated_at).toMatch(FORMAT_A);

    await t.gql(
      UPDATE,
      { id: assistant.id, input: { endCallOnVoicemail: false } },
      { token: account.apiKey },
    );
    expect((await listAssistants(account)).body.data[0]!.end_call_on_voicemail).toBe(0);
  });

  it("paginates 10 per page by default, only the caller's, and handles paging edge cases", async () => {
    const account = await t.createAccount();
    for (let index = 1; index <= 12; index++)
      await createAssistant(t, account, { name: `Assistant ${index}` });
    await createAssistant(t, bob, { name: "Bob's" });

    const first = await listAssistants(account);
    expect(first.body).toMatchObject({
      current_page: 1,
      per_page: 10,
      total: 12,
      last_page: 2,
      from: 1,
      to: 10,
    });
    expect(first.body.data.map((assistant) => assistant.name)).toEqual(
      Array.from({ length: 10 }, (_, index) => `Assistant ${index + 1}`),
    );
    expect(first.body.next_page_url).toBe("https://voxgate.test/api/user/assistants/get?page=2");
    const second = await listAssistants(account, "?page=2&per_page=5");
    expect(second.body).toMatchObject({
      current_page: 2,
      per_page: 5,
      total: 12,
      last_page: 3,
      from: 6,
      to: 10,
    });

    const past = await listAssistants(account, "?page=9");
    expect(past.status).toBe(200);
    expect(past.body).toMatchObject({ data: [], from: null, to: null, total: 12, last_page: 2 });
    for (const [query, field, message] of [
      ["?per_page=0", "per_page", "The per page field must be between 1 and 100."],
      ["?per_page=101", "per_page", "The per page field must be between 1 and 100."],
      ["?per_page=abc", "per_page", "The per page field must be an integer."],
      ["?page=abc", "page", "The page field must be an integer."],
      ["?page=0", "page", "The page field must be at least 1."],
    ] as const) {
      const response = await listAssistants(account, query);
      expect(response.status, query).toBe(422);
      expect(response.body).toMatchObject({ errors: { [field]: [message] } });
    }
    expect((await t.rest("GET", "/api/user/assistants/get")).status).toBe(401);
  });

  it("filters the GraphQL list by type, status and name", async () => {
    const account = await t.createAccount();
    await createAssistant(t, account, { name: "Inbound desk", type: "inbound" });
    await createAssistant(t, account, {
      name: "Outbound caller",
      type: "outbound",
      status: "inactive",
    });
    const names = async (args: string) => {
      const response = await t.gql<{
        assistants: { items: { name: string }[]; pageInfo: { total: number } };
      }>(`{ assistants(${args}) { items { name } pageInfo { total } } }`, {}, { token: account.apiKey });
      return response.data!.assistants.items.map((assistant) => assistant.name);
    };
    expect(await names(`type: outbound`)).toEqual(["Outbound caller"]);
    expect(await names(`status: active`)).toEqual(["Inbound desk"]);
    expect(await names(`search: "DESK"`)).toEqual(["Inbound desk"]);
    const bad = await t.gql(`{ assistants(type: robot) { items { id } } }`, {}, { token: account.apiKey });
    expect(bad.errors?.[0]?.message).toContain('Value "robot" does not exist in "AssistantType" enum');
  });
});

describe("defaults", () => {
  it("gives a new assistant the settings assistantDefaults shows, as the database's column defaults do", async () => {
    const account = await t.createAccount();
    const fields = Object.keys(ASSISTANT_DEFAULTS).join(" ");
    const shown = await t.gql<{ assistantDefaults: Record<string, unknown> }>(
      `{ assistantDefaults { ${fields} } }`,
      {},
      { token: account.apiKey },
    );
    expect(shown.errors).toBeUndefined();
    expect(shown.data!.assistantDefaults).toEqual(ASSISTANT_DEFAULTS);
    const created = await t.gql<{ createAssistant: Record<string, unknown> }>(
      `mutation { createAssistant(input: { name: "Plain" }) { ${fields} } }`,
      {},
      { token: account.apiKey },
    );
    expect(created.errors).toBeUndefined();
    expect(created.data!.createAssistant).toEqual(ASSISTANT_DEFAULTS);
    // A row written without the service (an import, a migration) gets the same from its columns.
    const row = await t.app.db.prisma.assistant.create({
      data: { name: "Raw", accountId: account.accountId, userId: account.userId },
    });
    const read = await t.gql<{ assistant: Record<string, unknown> }>(
      `{ assistant(id: ${row.id}) { ${fields} } }`,
      {},
      { token: account.apiKey },
    );
    expect(read.data!.assistant).toEqual(ASSISTANT_DEFAULTS);
  });
});

describe("validation", () => {
  const invalid: [string, Record<string, unknown>, string, string][] = [
    ["a missing name", { name: " " }, "name", "The name field is required."],
    [
      "an unknown time zone",
      { timezone: "Mars/Olympus" },
      "timezone",
      "The timezone field must be a valid IANA time zone (e.g. Europe/Paris).",
    ],
    [
      "a temperature above 2",
      { llmTemperature: "2.5" },
      "llmTemperature",
      "The llm temperature field must be a number between 0 and 2 with at most 2 decimals.",
    ],
    [
      "a stability with 3 decimals",
      { voiceStability: "0.555" },
      "voiceStability",
      "The voice stability field must be a number between 0 and 1 with at most 2 decimals.",
    ],
    [
      "a speed below 0.5",
      { speechSpeed: "0.2" },
      "speechSpeed",
      "The speech speed field must be a number between 0.5 and 2 with at most 2 decimals.",
    ],
    [
      "a max duration under 30 s",
      { maxDuration: 10 },
      "maxDuration",
      "The max duration field must be between 30 and 7200.",
    ],
    [
      "a silence over 600 s",
      { maxSilenceDuration: 601 },
      "maxSilenceDuration",
      "The max silence duration field must be between 5 and 600.",
    ],
    [
      "a sensitivity above 1",
      { endpointSensitivity: 1.5 },
      "endpointSensitivity",
      "The endpoint sensitivity field must be between 0 and 1.",
    ],
    [
      "variables with a non-string value",
      { variables: { count: 3 } },
      "variables.count",
      "The variables field must be a string.",
    ],
    [
      "a filler config with an unknown key",
      { fillerConfig: { angry: [] } },
      "fillerConfig",
      "The filler config field accepts only the keys neutral, negative, positive and question.",
    ],
    [
      "a widget colour that is not hex",
      { widgetSettings: { color: "red" } },
      "widgetSettings.color",
      "The widget settings color field must be a hex colour such as #4f46e5.",
    ],
    [
      "a post-call field of an unknown type",
      { postCallSchema: [{ name: "x", type: "date" }] },
      "postCallSchema.0.type",
      "The post call schema type field must be one of string, bool, number, integer.",
    ],
    [
      "a post-call field named with a space",
      { postCallSchema: [{ name: "next step", type: "string" }] },
      "postCallSchema.0.name",
      'The post call schema entry "next step" must be named with at most 64 letters, digits, _ or -.',
    ],
    [
      "two post-call fields of one name",
      {
        postCallSchema: [
          { name: "score", type: "number" },
          { name: "score", type: "integer" },
        ],
      },
      "postCallSchema.1.name",
      'The post call schema entry "score" appears more than once.',
    ],
    ["tools that are not an array", { tools: { a: 1 } }, "tools", "The tools field must be an array."],
    [
      "a webhook URL that is not http",
      { webhookUrl: "ftp://example.com" },
      "webhookUrl",
      "The webhook url field must be an http or https URL.",
    ],
    ...[
      "https://shop.example/checkout",
      "shop.example",
      "ftp://shop.example",
      "https://user@shop.example",
      "https://shop.example?x=1",
      "https://shop.example#top",
    ].map((origin): [string, Record<string, unknown>, string, string] => [
      `an allowed origin that is not an origin: ${origin}`,
      { allowedOrigins: ["https://fine.example", origin] },
      "allowedOrigins.1",
      "Each allowed origin must be a scheme, host and optional port without a path, such as https://shop.example.",
    ]),
  ];

  for (const [what, input, field, message] of invalid) {
    it(`refuses ${what}`, async () => {
      const response = await t.gql(CREATE, { input: { name: "Valid", ...input } }, { token: alice.apiKey });
      const error = response.errors?.[0];
      expect(error?.extensions?.code).toBe("VALIDATION_FAILED");
      expect(error?.extensions?.fields).toMatchObject({ [field]: [message] });
    });
  }

  for (const [field, value, type] of [
    ["type", "robot", "AssistantType"],
    ["status", "sleeping", "AssistantStatus"],
    ["endpointType", "magic", "EndpointType"],
    ["ambientSound", "jungle", "AmbientSound"],
    ["knowledgebaseMode", "guess", "KnowledgebaseMode"],
  ] as const) {
    it(`refuses an unknown ${field} (an enum of the schema)`, async () => {
      const response = await t.gql(
        CREATE,
        { input: { name: "Valid", [field]: value } },
        { token: alice.apiKey },
      );
      expect(response.errors?.[0]?.message).toContain(`Value "${value}" does not exist in "${type}" enum`);
    });
  }

  it("refuses a mode outside pipeline, multimodal and dualplex (an enum of the schema)", async () => {
    const response = await t.gql(
      CREATE,
      { input: { name: "Valid", mode: "telepathy" } },
      { token: alice.apiKey },
    );
    expect(response.errors?.[0]?.message).toContain(
      'Value "telepathy" does not exist in "AssistantMode" enum',
    );
  });

  it("sets, normalises and clears the origin allow-list over GraphQL", async () => {
    const created = await t.gql<{ createAssistant: { id: number; allowedOrigins: string[] } }>(
      `mutation($input: CreateAssistantInput!) { createAssistant(input: $input) { id allowedOrigins } }`,
      {
        input: {
          name: "Shop widget",
          allowedOrigins: ["https://Shop.Example/", " https://shop.example:443", "http://localhost:8080"],
        },
      },
      { token: alice.apiKey },
    );
    expect(created.errors).toBeUndefined();
    const { id, allowedOrigins } = created.data!.createAssistant;
    expect(allowedOrigins).toEqual(["https://shop.example", "http://localhost:8080"]);

    const setOrigins = (origins: string[] | null) =>
      t.gql<{ updateAssistant: { allowedOrigins: string[] } }>(
        `mutation($id: Int!, $input: UpdateAssistantInput!) { updateAssistant(id: $id, input: $input) { allowedOrigins } }`,
        { id, input: { allowedOrigins: origins } },
        { token: alice.apiKey },
      );
    expect((await setOrigins(["https://other.example:8443"])).data?.updateAssistant.allowedOrigins).toEqual([
      "https://other.example:8443",
    ]);
    const refused = await setOrigins(["https://other.example/shop"]);
    expect(refused.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    const kept = await t.gql<{ assistant: { allowedOrigins: string[] } }>(
      `query($id: Int!) { assistant(id: $id) { allowedOrigins } }`,
      { id },
      { token: alice.apiKey },
    );
    expect(kept.data?.assistant.allowedOrigins).toEqual(["https://other.example:8443"]);
    expect((await setOrigins(null)).data?.updateAssistant.allowedOrigins).toEqual([]);
  });

  it("creates nothing when refusing", async () => {
    const before = await t.app.db.prisma.assistant.count({ where: { accountId: alice.accountId } });
    await t.gql(CREATE, { input: { name: "Nope", maxDuration: 1 } }, { token: alice.apiKey });
    expect(await t.app.db.prisma.assistant.count({ where: { accountId: alice.accountId } })).toBe(before);
  });

  it("accepts only the account's own or public voices, numbers and knowledgebases", async () => {
    const bobsNumber = await fixtures.addNumber(bob);
    const bobsKnowledgebase = await t.app.db.prisma.knowledgebase.create({
      data: { accountId: bob.accountId, name: "Bob" },
    });
    const bobsVoice = await t.app.db.prisma.voice.create({
      data: { accountId: bob.accountId, name: "Bob's voice", gender: "male", supportedModes: ["pipeline"] },
    });
    const response = await t.gql(
      CREATE,
      {
        input: {
          name: "Borrower",
          voiceId: bobsVoice.id,
          phoneNumberId: bobsNumber.id,
          knowledgebaseId: bobsKnowledgebase.id,
        },
      },
      { token: alice.apiKey },
    );
    expect(response.errors?.[0]?.extensions?.fields).toEqual({
      voiceId: ["The selected voice id is invalid."],
      phoneNumberId: ["The selected phone number id is invalid."],
      knowledgebaseId: ["The selected knowledgebase id is invalid."],
    });
    const wrongMode = await t.gql(
      CREATE,
      { input: { name: "Realtime", voiceId: yui } },
      { token: alice.apiKey },
    );
    expect(wrongMode.errors?.[0]?.extensions?.fields).toEqual({
      voiceId: ["The selected voice does not support the pipeline mode."],
    });
    const rightMode = await t.gql(
      CREATE,
      { input: { name: "Realtime", voiceId: yui, mode: "dualplex" } },
      { token: alice.apiKey },
    );
    expect(rightMode.errors).toBeUndefined();
  });
});

describe("updating and deleting", () => {
  it("changes only the given fields, clears nullable ones with null and re-checks the voice against a new mode", async () => {
    const number = await fixtures.addNumber(alice);
    const assistant = await createAssistant(t, alice, { voiceId: ava, phoneNumberId: number.id });
    const updated = await t.gql<{ updateAssistant: Record<string, unknown> }>(
      UPDATE,
      { id: assistant.id, input: { name: "Renamed", phoneNumberId: null, llmTemperature: "1.5" } },
      { token: alice.apiKey },
    );
    expect(updated.data!.updateAssistant).toEqual({
      id: assistant.id,
      name: "Renamed",
      voiceId: ava,
      phoneNumberId: null,
      llmTemperature: "1.50",
    });
    const yuiAssistant = await createAssistant(t, alice, { voiceId: yui, mode: "multimodal" });
    const backToPipeline = await t.gql(
      UPDATE,
      { id: yuiAssistant.id, input: { mode: "pipeline" } },
      { token: alice.apiKey },
    );
    expect(backToPipeline.errors?.[0]?.extensions?.fields).toEqual({
      voiceId: ["The selected voice does not support the pipeline mode."],
    });
  });

  it("soft-deletes: gone from lists and lookups, kept in the database with deleted_at", async () => {
    const account = await t.createAccount();
    const kept = await createAssistant(t, account, { name: "Kept" });
    const removed = await createAssistant(t, account, { name: "Removed" });
    const deleted = await t.gql<{ deleteAssistant: { deletedId: number } }>(
      `mutation($id: Int!) { deleteAssistant(id: $id) { deletedId } }`,
      { id: removed.id },
      { token: account.apiKey },
    );
    expect(deleted.data!.deleteAssistant.deletedId).toBe(removed.id);
    const list = await listAssistants(account);
    expect(list.body.data.map((assistant) => assistant.id)).toEqual([kept.id]);
    expect(list.body.total).toBe(1);
    const row = await t.app.db.prisma.assistant.findUniqueOrThrow({ where: { id: removed.id } });
    expect(row.deletedAt).toBeInstanceOf(Date);
    const lookup = await t.gql(
      `query($id: Int!) { assistant(id: $id) { id } }`,
      { id: removed.id },
      { token: account.apiKey },
    );
    expect(lookup.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const again = await t.gql(
      `mutation($id: Int!) { deleteAssistant(id: $id) { deletedId } }`,
      { id: removed.id },
      { token: account.apiKey },
    );
    expect(again.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  it("answers another account's assistant with NOT_FOUND everywhere and changes nothing", async () => {
    const alices = await createAssistant(t, alice, { name: "Alice's" });
    for (const [query, variables] of [
      [`query($id: Int!) { assistant(id: $id) { id } }`, { id: alices.id }],
      [UPDATE, { id: alices.id, input: { name: "Hijacked" } }],
      [`mutation($id: Int!) { deleteAssistant(id: $id) { deletedId } }`, { id: alices.id }],
    ] as const) {
      const response = await t.gql(query, variables, { token: bob.apiKey });
      expect(response.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    }
    const after = await t.app.db.prisma.assistant.findUniqueOrThrow({ where: { id: alices.id } });
    expect(after).toMatchObject({ name: "Alice's", deletedAt: null });
    expect((await listAssistants(bob)).body.data.map((assistant) => assistant.id)).not.toContain(alices.id);
  });
});
