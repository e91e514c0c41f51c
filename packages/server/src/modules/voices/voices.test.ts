import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  freshDatabase,
  startTestApp,
  type TestAccount,
  type TestApp,
  testDatabaseKind,
} from "../../../test/support/test-app.ts";
import { PUBLIC_VOICES } from "../../seed/catalog.ts";

interface RestVoice {
  id: number;
  name: string;
  language_id: number | null;
  gender: string;
}

let t: TestApp;
let alice: TestAccount;
let bob: TestAccount;
let alicesVoiceId: number;
let bobsVoiceId: number;
let englishUs: number;

beforeAll(async () => {
  t = await startTestApp();
  [alice, bob] = await Promise.all([t.createAccount(), t.createAccount()]);
  englishUs = (await t.app.db.prisma.language.findUniqueOrThrow({ where: { code: "en-US" } })).id;
  const createVoice = (accountId: number, name: string) =>
    t.app.db.prisma.voice.create({
      data: { accountId, name, gender: "female", languageId: englishUs, supportedModes: ["pipeline"] },
    });
  alicesVoiceId = (await createVoice(alice.accountId, "Alice's clone")).id;
  bobsVoiceId = (await createVoice(bob.accountId, "Bob's clone")).id;
});
afterAll(() => t?.close());

const voices = (query: string, account = alice) =>
  t.rest<RestVoice[]>("GET", `/api/user/assistants/voices${query}`, { token: account.apiKey });

describe("REST /api/user/assistants/voices", () => {
  it("returns a plain array of every public voice and the caller's own, never another account's", async () => {
    const response = await voices("");
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
    const names = response.body.map((voice) => voice.name);
    expect(names).toEqual(
      expect.arrayContaining([...PUBLIC_VOICES.map((voice) => voice.name), "Alice's clone"]),
    );
    expect(names).toHaveLength(PUBLIC_VOICES.length + 1);
    expect(response.body.map((voice) => voice.id)).not.toContain(bobsVoiceId);
    expect(Object.keys(response.body[0]!).sort()).toEqual(["gender", "id", "language_id", "name"]);
    const own = response.body.find((voice) => voice.id === alicesVoiceId)!;
    expect(own).toEqual({
      id: alicesVoiceId,
      name: "Alice's clone",
      language_id: englishUs,
      gender: "female",
    });

    const bobs = await voices("", bob);
    expect(bobs.body.map((voice) => voice.id)).toContain(bobsVoiceId);
    expect(bobs.body.map((voice) => voice.id)).not.toContain(alicesVoiceId);
  });

  it("filters by the mode a voice supports", async () => {
    const realtime = await voices("?mode=dualplex");
    const expected = PUBLIC_VOICES.filter((voice) => voice.modes.includes("dualplex")).map(
      (voice) => voice.name,
    );
    expect(realtime.body.map((voice) => voice.name).sort()).toEqual([...expected].sort());
    const pipeline = await voices("?mode=pipeline");
    expect(pipeline.body.map((voice) => voice.name)).toContain("Alice's clone");
  });

  it("filters by language, and combines both filters", async () => {
    const english = await voices(`?language_id=${englishUs}`);
    const expected = PUBLIC_VOICES.filter((voice) => voice.language === "en-US").map((voice) => voice.name);
    expect(english.body.map((voice) => voice.name).sort()).toEqual([...expected, "Alice's clone"].sort());
    expect(english.body.every((voice) => voice.language_id === englishUs)).toBe(true);
    const both = await voices(`?language_id=${englishUs}&mode=multimodal`);
    expect(both.body.map((voice) => voice.name).sort()).toEqual(["Ava", "Noah"]);
  });

  it("refuses an unknown mode and a bad or unknown language id with 422 and field messages", async () => {
    expect(await voices("?mode=telepathy")).toMatchObject({
      status: 422,
      body: { errors: { mode: ["The selected mode is invalid (pipeline, multimodal or dualplex)."] } },
    });
    expect(await voices("?language_id=abc")).toMatchObject({
      status: 422,
      body: { errors: { language_id: ["The language id field must be an integer."] } },
    });
    expect(await voices("?language_id=999999")).toMatchObject({
      status: 422,
      body: { errors: { language_id: ["The selected language id is invalid."] } },
    });
    expect(await voices("?language_id=0")).toMatchObject({ status: 422 });
  });

  it("requires a credential", async () => {
    expect((await t.rest("GET", "/api/user/assistants/voices")).status).toBe(401);
  });
});

describe("GraphQL voices and languages", () => {
  it("tells which modes each voice supports and lists the languages", async () => {
    const response = await t.gql<{
      voices: { name: string; supportedModes: string[]; isPublic: boolean; language: { code: string } }[];
      languages: { code: string }[];
    }>(
      `{ voices { name supportedModes isPublic language { code } } languages { code } }`,
      {},
      { token: alice.apiKey },
    );
    const yui = response.data!.voices.find((voice) => voice.name === "Yui")!;
    expect(yui).toEqual({
      name: "Yui",
      supportedModes: ["multimodal", "dualplex"],
      isPublic: true,
      language: { code: "ja-JP" },
    });
    expect(response.data!.voices.find((voice) => voice.name === "Alice's clone")!.isPublic).toBe(false);
    expect(response.data!.languages.map((language) => language.code)).toContain("fr-FR");
  });
});

describe("a new install", () => {
  // Other tests start from an already migrated template; this one starts where a new user does: an empty data
  // directory (PGlite) or an empty database (PostgreSQL), migrated by the process that then answers.
  it("filters voices by mode in the process that created the database", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), "voxgate-new-install-"));
    const empty = testDatabaseKind() === "postgres" ? await freshDatabase({ unmigrated: true }) : null;
    const fresh = await startTestApp({ database: empty?.target ?? { kind: "pglite", dataDir } });
    try {
      const account = await fresh.createAccount();
      const expected = PUBLIC_VOICES.filter((voice) => voice.modes.includes("dualplex")).map(
        (voice) => voice.name,
      );
      const rest = await fresh.rest<RestVoice[]>("GET", "/api/user/assistants/voices?mode=dualplex", {
        token: account.apiKey,
      });
      expect(rest.status).toBe(200);
      expect(rest.body.map((voice) => voice.name).sort()).toEqual([...expected].sort());
      const gql = await fresh.gql<{ voices: { name: string }[] }>(
        `{ voices(mode: dualplex) { name } }`,
        {},
        { token: account.apiKey },
      );
      expect(gql.errors).toBeUndefined();
      expect(gql.data!.voices.map((voice) => voice.name).sort()).toEqual([...expected].sort());
    } finally {
      await fresh.close();
      await empty?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
