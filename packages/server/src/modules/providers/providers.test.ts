import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { SecretBox } from "../../secret-box.ts";

/**
 * The provider and model catalogue over GraphQL (fixed ids, where each runs), accounts' own keys
 * (sealed, never returned), and assistants' selections checked against the catalogue (GraphQL and
 * REST).
 */

let t: TestApp;
let model: FakeOpenAI;
let alice: TestAccount;
let bob: TestAccount;

const ELEVENLABS_DEPLOYMENT_KEY = "el-deployment-key";
const ALICE_CARTESIA_KEY = "sk_car_alice-secret-0001";

interface Entry {
  id: number;
  kind: string;
  name: string;
  configured: boolean;
  accountKey: boolean;
  available: boolean;
  isDefault: boolean;
  keyProvider: string;
}

const ENTRY_FIELDS = "id kind name label keyProvider configured accountKey available isDefault";

const speechProviders = async (account: TestAccount, kind?: string) => {
  const response = await t.gql<{ speechProviders: (Entry & { streaming: boolean })[] }>(
    `query($kind: SpeechProviderKind) { speechProviders(kind: $kind) { ${ENTRY_FIELDS} streaming } }`,
    { kind },
    { token: account.apiKey },
  );
  expect(response.errors).toBeUndefined();
  return response.data!.speechProviders;
};

const aiModels = async (account: TestAccount, kind?: string) => {
  const response = await t.gql<{ aiModels: Entry[] }>(
    `query($kind: AiModelKind) { aiModels(kind: $kind) { ${ENTRY_FIELDS} } }`,
    { kind },
    { token: account.apiKey },
  );
  expect(response.errors).toBeUndefined();
  return response.data!.aiModels;
};

const SET_KEY = `mutation($provider: ProviderKeyName!, $key: String!) {
  setProviderKey(provider: $provider, key: $key) { provider lastFour createdAt updatedAt }
}`;
const REMOVE_KEY = `mutation($provider: ProviderKeyName!) { removeProviderKey(provider: $provider) { provider lastFour } }`;
const CREATE = `mutation($input: CreateAssistantInput!) {
  createAssistant(input: $input) { id transcriberProviderId synthesizerProviderId llmModelId multimodalModelId }
}`;

beforeAll(async () => {
  model = await startFakeOpenAI();
  t = await startTestApp({
    model,
    env: {
      // A self-hosted chat model the seeded catalogue does not have: it is added with an id from 1000.
      OPENAI_MODEL: "llama-3.1-8b-instruct",
      ELEVENLABS_API_KEY: ELEVENLABS_DEPLOYMENT_KEY,
    },
  });
  [alice, bob] = await Promise.all([t.createAccount(), t.createAccount()]);
});

afterAll(async () => {
  await t?.close();
  await model?.close();
});

describe("the catalogue", () => {
  it("lists the speech providers with their fixed ids and where each runs in this deployment", async () => {
    const providers = await speechProviders(alice);
    expect(providers.map(({ id, kind, name, streaming }) => ({ id, kind, name, streaming }))).toEqual([
      { id: 1, kind: "transcriber", name: "openai", streaming: false },
      { id: 2, kind: "transcriber", name: "deepgram", streaming: true },
      { id: 3, kind: "transcriber", name: "openai-realtime", streaming: true },
      { id: 4, kind: "synthesizer", name: "openai", streaming: false },
      { id: 5, kind: "synthesizer", name: "elevenlabs", streaming: true },
      { id: 6, kind: "synthesizer", name: "cartesia", streaming: true },
    ]);
    const byId = new Map(providers.map((provider) => [provider.id, provider]));
    // The OpenAI-compatible endpoints point at the fake's own server; ElevenLabs has the deployment's key.
    expect(byId.get(1)).toMatchObject({ configured: true, isDefault: true, keyProvider: "openai" });
    expect(byId.get(2)).toMatchObject({ configured: false, available: false, isDefault: false });
    expect(byId.get(3)).toMatchObject({ configured: true, keyProvider: "openai" });
    expect(byId.get(5)).toMatchObject({ configured: true, available: true, keyProvider: "elevenlabs" });
    expect(byId.get(6)).toMatchObject({ configured: false, accountKey: false, available: false });
    expect((await speechProviders(alice, "synthesizer")).map((provider) => provider.id)).toEqual([4, 5, 6]);
  });

  it("lists the models, with the deployment's configured chat model added beyond the seeded ids", async () => {
    const models = await aiModels(alice, "llm");
    expect(models.slice(0, 5).map(({ id, name }) => ({ id, name }))).toEqual([
      { id: 1, name: "gpt-4o-mini" },
      { id: 2, name: "gpt-4o" },
      { id: 3, name: "gpt-4.1-mini" },
      { id: 4, name: "gpt-4.1" },
      { id: 5, name: "gpt-4.1-nano" },
    ]);
    const configured = models.find((entry) => entry.name === "llama-3.1-8b-instruct")!;
    expect(configured.id).toBeGreaterThanOrEqual(1000);
    expect(configured).toMatchObject({ kind: "llm", isDefault: true, configured: true });
    expect(models.filter((entry) => entry.isDefault)).toHaveLength(1);
    const realtime = await aiModels(alice, "multimodal");
    expect(realtime.map(({ id, name, isDefault }) => ({ id, name, isDefault }))).toEqual([
      { id: 6, name: "gpt-realtime", isDefault: true },
      { id: 7, name: "gpt-4o-realtime-preview", isDefault: false },
      { id: 8, name: "gpt-4o-mini-realtime-preview", isDefault: false },
    ]);
    // The same id on every listing: the row is stored, not made up per request.
    expect((await aiModels(bob, "llm")).find((entry) => entry.name === configured.name)?.id).toBe(
      configured.id,
    );
  });

  it("needs a signed-in caller", async () => {
    const response = await t.gql(`{ speechProviders { id } }`);
    expect(response.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });
});

describe("an account's own provider keys", () => {
  it("are stored sealed, shown by their last four characters only, and count for that account alone", async () => {
    const set = await t.gql<{ setProviderKey: { provider: string; lastFour: string; updatedAt: string } }>(
      SET_KEY,
      { provider: "cartesia", key: ALICE_CARTESIA_KEY },
      { token: alice.apiKey },
    );
    expect(set.errors).toBeUndefined();
    expect(set.data!.setProviderKey).toMatchObject({ provider: "cartesia", lastFour: "0001" });

    const row = await t.app.db.prisma.accountProviderKey.findUniqueOrThrow({
      where: { accountId_provider: { accountId: alice.accountId, provider: "cartesia" } },
    });
    expect(row.sealedKey).not.toContain(ALICE_CARTESIA_KEY);
    expect(new SecretBox(t.app.config, t.app.logger).open(row.sealedKey)).toBe(ALICE_CARTESIA_KEY);

    const cartesia = (await speechProviders(alice)).find((provider) => provider.name === "cartesia")!;
    expect(cartesia).toMatchObject({ configured: false, accountKey: true, available: true });
    const bobs = (await speechProviders(bob)).find((provider) => provider.name === "cartesia")!;
    expect(bobs).toMatchObject({ accountKey: false, available: false });

    // Nothing any query answers holds the key (or the deployment's).
    const everything = await t.gql(
      `{ providerKeys { provider lastFour createdAt updatedAt }
         speechProviders { ${ENTRY_FIELDS} } aiModels { ${ENTRY_FIELDS} } }`,
      {},
      { token: alice.apiKey },
    );
    expect(everything.errors).toBeUndefined();
    expect((everything.data as { providerKeys: unknown[] }).providerKeys).toEqual([
      expect.objectContaining({ provider: "cartesia", lastFour: "0001" }),
    ]);
    const text = JSON.stringify(everything);
    expect(text).not.toContain(ALICE_CARTESIA_KEY);
    expect(text).not.toContain(row.sealedKey);
    expect(text).not.toContain(ELEVENLABS_DEPLOYMENT_KEY);
    const bobsKeys = await t.gql<{ providerKeys: unknown[] }>(
      `{ providerKeys { provider } }`,
      {},
      { token: bob.apiKey },
    );
    expect(bobsKeys.data!.providerKeys).toEqual([]);
  });

  it("are replaced by a new key, and removed (NOT_FOUND once gone)", async () => {
    await t.gql(SET_KEY, { provider: "deepgram", key: "dg-first-key-aaaa" }, { token: bob.apiKey });
    const replaced = await t.gql<{ setProviderKey: { lastFour: string } }>(
      SET_KEY,
      { provider: "deepgram", key: "dg-second-key-bbbb" },
      { token: bob.apiKey },
    );
    expect(replaced.data!.setProviderKey.lastFour).toBe("bbbb");
    expect(await t.app.db.prisma.accountProviderKey.count({ where: { accountId: bob.accountId } })).toBe(1);
    const removed = await t.gql<{ removeProviderKey: { provider: string; lastFour: string } }>(
      REMOVE_KEY,
      { provider: "deepgram" },
      { token: bob.apiKey },
    );
    expect(removed.data!.removeProviderKey).toEqual({ provider: "deepgram", lastFour: "bbbb" });
    const again = await t.gql(REMOVE_KEY, { provider: "deepgram" }, { token: bob.apiKey });
    expect(again.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    // Another account's key is not this one's to remove.
    const notBobs = await t.gql(REMOVE_KEY, { provider: "cartesia" }, { token: bob.apiKey });
    expect(notBobs.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    expect(await t.app.db.prisma.accountProviderKey.count({ where: { accountId: alice.accountId } })).toBe(1);
  });

  it("refuses keys that cannot be one, and providers that take none", async () => {
    for (const [key, message] of [
      ["short", "The key field must be at least 8 characters."],
      ["has a space inside", "The key field must be printable characters without spaces."],
      ["x".repeat(513), "The key field must not be greater than 512 characters."],
    ]) {
      const response = await t.gql(SET_KEY, { provider: "openai", key }, { token: alice.apiKey });
      expect(response.errors?.[0]?.extensions?.code, key).toBe("VALIDATION_FAILED");
      expect(response.errors?.[0]?.extensions?.fields).toEqual({ key: [message] });
    }
    const unknown = await t.gql(
      SET_KEY,
      { provider: "azure", key: "long-enough-key" },
      { token: alice.apiKey },
    );
    expect(unknown.errors?.[0]?.message).toContain('Value "azure" does not exist in "ProviderKeyName" enum');
    const anonymous = await t.gql(SET_KEY, { provider: "openai", key: "long-enough-key" });
    expect(anonymous.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });
});

describe("an assistant's selection", () => {
  it("accepts catalogue ids of the right kind and shows them over GraphQL and REST", async () => {
    const created = await t.gql<{ createAssistant: Record<string, number> & { id: number } }>(
      CREATE,
      {
        input: {
          name: "Selected",
          transcriberProviderId: 2,
          synthesizerProviderId: 6,
          llmModelId: 2,
          multimodalModelId: 7,
        },
      },
      { token: alice.apiKey },
    );
    expect(created.errors).toBeUndefined();
    expect(created.data!.createAssistant).toMatchObject({
      transcriberProviderId: 2,
      synthesizerProviderId: 6,
      llmModelId: 2,
      multimodalModelId: 7,
    });
    const rest = await t.rest<{ data: Record<string, unknown>[] }>("GET", "/api/user/assistants/get", {
      token: alice.apiKey,
    });
    expect(rest.status).toBe(200);
    expect(rest.body.data.find((row) => row.id === created.data!.createAssistant.id)).toMatchObject({
      transcriber_provider_id: 2,
      synthesizer_provider_id: 6,
      llm_model_id: 2,
      multimodal_model_id: 7,
    });
    // Null goes back to the deployment's default.
    const cleared = await t.gql<{ updateAssistant: { transcriberProviderId: number | null } }>(
      `mutation($id: Int!) { updateAssistant(id: $id, input: { transcriberProviderId: null }) { transcriberProviderId } }`,
      { id: created.data!.createAssistant.id },
      { token: alice.apiKey },
    );
    expect(cleared.data!.updateAssistant.transcriberProviderId).toBeNull();
  });

  it("refuses ids that name nothing or a row of another kind, each with its field's message", async () => {
    const response = await t.gql(
      CREATE,
      {
        input: {
          name: "Mixed up",
          transcriberProviderId: 5,
          synthesizerProviderId: 77,
          llmModelId: 6,
          multimodalModelId: 1,
        },
      },
      { token: alice.apiKey },
    );
    expect(response.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    expect(response.errors?.[0]?.extensions?.fields).toEqual({
      transcriberProviderId: [
        "The selected transcriber provider id names the synthesizer provider elevenlabs, not a transcriber provider.",
      ],
      synthesizerProviderId: ["The selected synthesizer provider id is invalid."],
      llmModelId: ["The selected llm model id names the multimodal model gpt-realtime, not an llm model."],
      multimodalModelId: [
        "The selected multimodal model id names the llm model gpt-4o-mini, not a multimodal model.",
      ],
    });
    const assistant = await t.gql<{ createAssistant: { id: number } }>(
      CREATE,
      { input: { name: "Later" } },
      { token: alice.apiKey },
    );
    const update = await t.gql(
      `mutation($id: Int!) { updateAssistant(id: $id, input: { llmModelId: 4000 }) { id } }`,
      { id: assistant.data!.createAssistant.id },
      { token: alice.apiKey },
    );
    expect(update.errors?.[0]?.extensions?.fields).toEqual({
      llmModelId: ["The selected llm model id is invalid."],
    });
  });

  it("picks the chat model of text replies, and null the deployment's", async () => {
    const carol = await t.createAccount({ balance: "5" });
    const chosen = await t.gql<{ createAssistant: { id: number } }>(
      CREATE,
      { input: { name: "GPT-4.1", llmModelId: 4 } },
      { token: carol.apiKey },
    );
    const plain = await t.gql<{ createAssistant: { id: number } }>(
      CREATE,
      { input: { name: "Default" } },
      { token: carol.apiKey },
    );
    const models: string[] = [];
    for (const assistant of [chosen, plain]) {
      const before = model.chatRequests.length;
      const reply = await t.rest<{ reply: string }>("POST", "/api/ai/generate-reply", {
        token: carol.apiKey,
        body: {
          assistant_id: assistant.data!.createAssistant.id,
          customer_identifier: "+33612345678",
          message: "hi",
        },
      });
      expect(reply.status).toBe(200);
      expect(reply.body.reply).toBe("Echo: hi");
      models.push(...model.chatRequests.slice(before).map((request) => request.model));
    }
    expect(models).toEqual(["gpt-4.1", "llama-3.1-8b-instruct"]);
  });

  it("answers an account's text replies with its own OpenAI key, and others' with the deployment's", async () => {
    const [dora, erin] = await Promise.all([
      t.createAccount({ balance: "5" }),
      t.createAccount({ balance: "5" }),
    ]);
    const doraKey = "sk-dora-own-key-0042";
    const set = await t.gql(SET_KEY, { provider: "openai", key: doraKey }, { token: dora.apiKey });
    expect(set.errors).toBeUndefined();
    const authorizations: (string | undefined)[] = [];
    for (const account of [dora, erin]) {
      const assistant = await t.gql<{ createAssistant: { id: number } }>(
        CREATE,
        { input: { name: "Own key" } },
        { token: account.apiKey },
      );
      const before = model.chatRequests.length;
      const reply = await t.rest<{ reply: string }>("POST", "/api/ai/generate-reply", {
        token: account.apiKey,
        body: {
          assistant_id: assistant.data!.createAssistant.id,
          customer_identifier: "+33612345679",
          message: "hi",
        },
      });
      expect(reply.status).toBe(200);
      authorizations.push(...model.chatRequests.slice(before).map((request) => request.authorization));
    }
    expect(authorizations).toEqual([`Bearer ${doraKey}`, `Bearer ${t.app.config.openai.apiKey}`]);
  });
});
