import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REST_BODY_LIMITS } from "../src/limits.ts";
import { seededRandom } from "../src/seeded-random.ts";
import { createAssistant } from "./fixtures/assistants.ts";
import { createKnowledgebase } from "./fixtures/knowledge.ts";
import { telephonyFixtures } from "./fixtures/telephony.ts";
import { echoResponder, type FakeOpenAI, startFakeOpenAI } from "./support/fake-openai.ts";
import { deepJsonText, Picker, validValue, WRONG_VALUES } from "./support/schema-values.ts";
import { startTestApp, type TestAccount, type TestApp } from "./support/test-app.ts";

// biome-ignore lint/suspicious/noExplicitAny: the OpenAPI document is walked by keyword
type Json = Record<string, any>;

/** One generated request: where it goes, and the body exactly as sent. */
interface Attempt {
  kind: string;
  path: string;
  query: URLSearchParams;
  contentType?: string;
  body?: string | FormData;
}

/** Requests per operation; each is sent with the owner's key and, for a route that needs one, without. */
const ATTEMPTS_PER_OPERATION = 16;
const MAX_ID = 2_147_483_647;

/**
 * Every operation of the served OpenAPI document gets requests generated from its own schemas by a
 * seeded generator: valid ones, and invalid ones (wrong types, missing fields, numbers and ids out of
 * range, non-object, empty, deep, oversized and garbage bodies, odd form field names). None may
 * answer 5xx, and each status must be one the document lists for that operation.
 */
describe("the REST API under generated requests", () => {
  let t: TestApp;
  let model: FakeOpenAI;
  let owner: TestAccount;
  let spec: Json;
  /** Real objects of the owner's that path parameters name half of the time. */
  const known: Record<string, string> = {};
  /** The same for body fields, so that more bodies get past "not found" to where their values are used. */
  const knownInBody: Record<string, number> = {};

  beforeAll(async () => {
    model = await startFakeOpenAI();
    model.respondWith(echoResponder);
    t = await startTestApp({ model });
    owner = await t.createAccount({ balance: "50" });
    const assistant = await createAssistant(t, owner, { widgetSettings: { voice: true } });
    const conversation = await t.rest<Json>(
      "POST",
      `/api/widget/assistants/${assistant.uuid}/conversations`,
      { body: {} },
    );
    known.knowledgebaseId = String(await createKnowledgebase(t, owner.apiKey));
    knownInBody.assistant_id = assistant.id;
    knownInBody.campaign_id = (await telephonyFixtures(t).createCampaign(owner)).id;
    known.assistantUuid = assistant.uuid;
    known.conversationUuid = conversation.body.conversation_id;
    spec = (await t.rest<Json>("GET", "/api/openapi.json")).body;
  }, 60_000);

  afterAll(async () => {
    await t?.close();
    await model?.close();
  });

  it("answers every operation's generated requests without a 5xx or an undocumented status", async () => {
    const problems: string[] = [];
    let sent = 0;
    for (const [template, item] of Object.entries<Json>(spec.paths)) {
      for (const [method, operation] of Object.entries<Json>(item)) {
        const documented = new Set(Object.keys(operation.responses));
        const pick = new Picker(seededRandom(hash(`${method} ${template}`)));
        const needsKey = operation.security === undefined;
        for (let index = 0; index < ATTEMPTS_PER_OPERATION; index++) {
          const attempt = generate(template, method, operation, index, pick);
          const tokens = needsKey && index % 4 === 0 ? [owner.apiKey, undefined] : [owner.apiKey];
          for (const token of tokens) {
            const status = await send(method, attempt, token);
            sent++;
            if (status >= 500 || !documented.has(String(status))) {
              problems.push(
                `${method.toUpperCase()} ${attempt.path}${attempt.query.size ? `?${attempt.query}` : ""} ` +
                  `[${attempt.kind}${token ? "" : ", no key"}] → ${status}`,
              );
            }
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(sent).toBeGreaterThan(Object.keys(spec.paths).length * ATTEMPTS_PER_OPERATION);
  }, 120_000);

  async function send(method: string, attempt: Attempt, token: string | undefined): Promise<number> {
    const headers: Record<string, string> = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (attempt.contentType) headers["content-type"] = attempt.contentType;
    const query = attempt.query.size ? `?${attempt.query}` : "";
    const response = await fetch(`${t.url}/api${attempt.path}${query}`, {
      method: method.toUpperCase(),
      headers,
      ...(attempt.body !== undefined ? { body: attempt.body } : {}),
    });
    await response.arrayBuffer();
    return response.status;
  }

  function generate(template: string, method: string, operation: Json, index: number, pick: Picker): Attempt {
    const parameters: Json[] = operation.parameters ?? [];
    const schema: Json | undefined = operation.requestBody?.content?.["application/json"]?.schema;
    const multipart = operation.requestBody?.content?.["multipart/form-data"] !== undefined;
    const takesBody = method !== "get";
    const kinds = [
      "valid",
      "valid form",
      multipart ? "valid multipart" : "valid",
      "missing required",
      "wrong type",
      "wrong type",
      "non-object body",
      "empty body",
      "garbage body",
      "deep body",
      "oversized body",
      "odd form names",
      "garbage multipart",
      "wrong query",
      "edge path ids",
      "unread content type",
    ];
    const kind = kinds[index % kinds.length]!;
    const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
      const parameter = parameters.find((candidate) => candidate.name === name)!;
      return encodeURIComponent(pathValue(name, parameter.schema, template, kind === "edge path ids", pick));
    });
    const query = new URLSearchParams();
    for (const parameter of parameters.filter((candidate) => candidate.in === "query")) {
      if (kind === "wrong query") query.set(parameter.name, String(pick.one(WRONG_VALUES)));
      else if (parameter.required || pick.chance(0.5))
        query.set(parameter.name, String(validValue(parameter.schema, pick)));
    }
    const attempt: Attempt = { kind, path, query };
    if (!takesBody) return attempt;

    const valid = (schema ? validValue(schema, pick) : {}) as Json;
    for (const name of Object.keys(valid)) {
      if (knownInBody[name] && pick.chance(0.7)) valid[name] = knownInBody[name];
    }
    const json = (text: string): Attempt => ({ ...attempt, contentType: "application/json", body: text });
    switch (kind) {
      case "valid form":
        return {
          ...attempt,
          contentType: "application/x-www-form-urlencoded",
          body: new URLSearchParams(formFields(valid)).toString(),
        };
      case "valid multipart": {
        const form = new FormData();
        for (const [name, value] of formFields(valid)) {
          if (name === "file") form.set(name, new Blob(["Opening hours: nine to five."]), "hours.txt");
          else form.set(name, value);
        }
        return { ...attempt, body: form };
      }
      case "missing required": {
        const required: string[] = schema?.required ?? [];
        if (required.length > 0) delete valid[pick.one(required)];
        return json(JSON.stringify(valid));
      }
      case "wrong type": {
        const names = Object.keys(schema?.properties ?? { field: {} });
        valid[pick.one(names)] = pick.one(WRONG_VALUES);
        return json(JSON.stringify(valid));
      }
      case "non-object body":
        return json(pick.one(["[1, 2]", '"text"', "42", "null", "true", "[]"]));
      case "empty body":
        return json("");
      case "garbage body":
        return json(pick.one(["{bad", '{"a":', "\u0000\u0001\u0002", "}{", "\ud800", "NaN"]));
      case "deep body": {
        // One field of an otherwise valid body, so that the value goes as far as the route takes it.
        const names = Object.keys(schema?.properties ?? { field: {} });
        const name = pick.one(names);
        delete valid[name];
        const rest = JSON.stringify(valid).slice(1);
        const deep = deepJsonText(pick.one([100, 5000, 400_000]));
        return json(`{${JSON.stringify(name)}: ${deep}${rest === "}" ? "" : ","}${rest}`);
      }
      case "oversized body":
        return json(JSON.stringify({ name: "a".repeat(REST_BODY_LIMITS.bodyBytes) }));
      case "odd form names":
        return {
          ...attempt,
          contentType: "application/x-www-form-urlencoded",
          body: pick.one([
            "a[b][c][d][e][f][g][h][i][j]=1",
            "__proto__[polluted]=1",
            "list[99999]=1",
            "x=1&x[y]=2",
            "tags[]=a&tags[name]=b",
            Array.from({ length: 1200 }, (_, field) => `f${field}=1`).join("&"),
          ]),
        };
      case "garbage multipart":
        return {
          ...attempt,
          contentType: pick.one([
            "multipart/form-data; boundary=XyZ",
            "multipart/form-data",
            "Multipart/Form-Data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW",
          ]),
          body: pick.one(["--XyZ\r\nContent-Disposition: form-data\r\n\r\nx", "not multipart at all", ""]),
        };
      case "unread content type":
        return {
          ...attempt,
          contentType: pick.one(["text/plain", "application/xml"]),
          body: JSON.stringify(valid),
        };
      default:
        return json(JSON.stringify(valid));
    }
  }

  function pathValue(name: string, schema: Json, template: string, edge: boolean, pick: Picker): string {
    if (schema.type === "integer") {
      if (edge) return String(pick.one([0, MAX_ID, MAX_ID + 1, "99999999999999999999", "-1", "1.5", "abc"]));
      if (known[name] && pick.chance(0.5)) return known[name];
      return String(pick.int(1_000_000, MAX_ID));
    }
    if (schema.format === "uuid") {
      if (edge)
        return pick.one([
          "not-a-uuid",
          "00000000-0000-0000-0000-000000000000",
          "7C9E6679-7425-40DE-944B-E07FC1F99A4B",
        ]);
      if (pick.chance(0.5))
        return template.startsWith("/widget") ? known.assistantUuid! : known.conversationUuid!;
      return crypto.randomUUID();
    }
    return pick.text(12) || "x";
  }
});

/** `{links: [{link: "a"}]}` → `links[0][link]=a`, as browsers' forms name nested fields. */
function formFields(value: unknown, prefix = ""): [string, string][] {
  if (value === null || value === undefined) return prefix ? [[prefix, ""]] : [];
  if (typeof value !== "object") return [[prefix, String(value)]];
  return Object.entries(value).flatMap(([key, child]) =>
    formFields(child, prefix ? `${prefix}[${key}]` : key),
  );
}

/** A seed per operation, so that adding a route does not change the requests of the others. */
function hash(text: string): number {
  let value = 2166136261;
  for (const char of text) value = Math.imul(value ^ char.charCodeAt(0), 16777619);
  return value >>> 0;
}
