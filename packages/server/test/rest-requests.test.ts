import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Campaign } from "../src/generated/prisma/client.ts";
import { createKnowledgebase } from "./fixtures/knowledge.ts";
import { telephonyFixtures, uniqueUsNumber } from "./fixtures/telephony.ts";
import { startTestApp, type TestAccount, type TestApp } from "./support/test-app.ts";

/** How the REST router reads, limits and refuses request bodies and paths, before any route logic. */
let t: TestApp;
let alice: TestAccount;
let campaign: Campaign;

beforeAll(async () => {
  t = await startTestApp();
  alice = await t.createAccount();
  campaign = await telephonyFixtures(t).createCampaign(alice, { name: "Hardening" });
});
afterAll(() => t?.close());

const leadCount = () => t.app.db.prisma.lead.count({ where: { campaignId: campaign.id } });

/** Sends `body` as raw bytes with the given headers and reads the JSON answer. */
async function send(method: string, path: string, headers: Record<string, string>, body?: string) {
  const response = await fetch(`${t.url}${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/**
 * Streams up to `totalBytes` without a Content-Length (chunked), counting what the server pulled
 * before it answered: a server that reads the whole body pulls all of it.
 */
async function streamChunked(path: string, headers: Record<string, string>, totalBytes: number) {
  const chunk = new TextEncoder().encode("a".repeat(64 * 1024));
  let sent = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= totalBytes) return controller.close();
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  const response = await fetch(`${t.url}${path}`, {
    method: "POST",
    headers,
    body,
    duplex: "half",
  } as RequestInit);
  const answer = (await response.json()) as Record<string, unknown>;
  return { status: response.status, body: answer, sent };
}

describe("REST request bodies", () => {
  const offered = 32 * 1024 * 1024;

  it.each([
    ["application/x-www-form-urlencoded", "phone_number="],
    ["application/json", '{"phone_number":"'],
    ["text/plain", ""],
    ["application/octet-stream", ""],
  ])("cuts a chunked %s body at 1 MB while it streams and answers 413", async (type) => {
    const before = await leadCount();
    const response = await streamChunked(
      "/api/user/lead",
      { authorization: `Bearer ${alice.apiKey}`, "content-type": type },
      offered,
    );
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ message: "The request body is too large (limit 1 MB)." });
    // Answered long before the 32 MB the client was ready to send.
    expect(response.sent).toBeLessThan(offered / 2);
    expect(await leadCount()).toBe(before);
  });

  it("answers body errors in the endpoint's own error shape", async () => {
    const bearer = { authorization: `Bearer ${alice.apiKey}`, "content-type": "application/json" };
    expect(await send("POST", "/api/ai/generate-reply", bearer, "{bad json")).toEqual({
      status: 400,
      body: { success: false, error_code: "BAD_REQUEST", message: "The request body is not valid JSON." },
    });
    const tooLarge = await streamChunked("/api/ai/generate-reply", bearer, offered);
    expect(tooLarge).toMatchObject({
      status: 413,
      body: { success: false, error_code: "PAYLOAD_TOO_LARGE" },
    });
    const messages = `/api/conversations/${randomUUID()}/messages`;
    expect(await send("POST", messages, { "content-type": "application/json" }, "{bad json")).toEqual({
      status: 400,
      body: { status: false, error: "The request body is not valid JSON." },
    });
    expect(await send("POST", messages, { "content-type": "application/json" }, "[1]")).toEqual({
      status: 400,
      body: { status: false, error: "The request body must be a JSON object." },
    });
  });

  it("nests form-urlencoded fields as Laravel does", async () => {
    const [phone, second] = [uniqueUsNumber(), uniqueUsNumber()];
    const form = new URLSearchParams({
      phone_number: phone,
      campaign_id: String(campaign.id),
      "variables[customer_name]": "Ada",
      "secondary_contacts[0][phone_number]": second,
      "secondary_contacts[0][variables][role]": "spouse",
    });
    const response = await send(
      "POST",
      "/api/user/lead",
      { authorization: `Bearer ${alice.apiKey}`, "content-type": "application/x-www-form-urlencoded" },
      form.toString(),
    );
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      phone_number: phone,
      variables: { customer_name: "Ada" },
      secondary_contacts: [{ phone_number: second, variables: { role: "spouse" } }],
    });
  });

  it.each([
    ["__proto__[polluted]=1", 422, "__proto__[polluted]"],
    ["variables[constructor][prototype][polluted]=1", 422, "variables[constructor][prototype][polluted]"],
    [
      "secondary_contacts[99999999][phone_number]=%2B14155550123",
      422,
      "secondary_contacts[99999999][phone_number]",
    ],
    [`variables${"[a]".repeat(20)}=1`, 422, `variables${"[a]".repeat(20)}`],
    ["variables=1&variables[name]=2", 422, "variables[name]"],
    ["secondary_contacts[0][phone_number]=1&secondary_contacts[name]=2", 422, "secondary_contacts[name]"],
  ])("refuses the form %s under the offending field, storing nothing", async (form, status, field) => {
    const before = await leadCount();
    const response = await send(
      "POST",
      "/api/user/lead",
      { authorization: `Bearer ${alice.apiKey}`, "content-type": "application/x-www-form-urlencoded" },
      `phone_number=%2B14155550123&campaign_id=${campaign.id}&${form}`,
    );
    expect(response.status).toBe(status);
    expect(Object.keys(response.body.errors as object)).toEqual([field]);
    expect(await leadCount()).toBe(before);
  });

  it("refuses a form with more than 1000 fields as a bad request", async () => {
    const form = Array.from({ length: 1001 }, (_, index) => `variables[v${index}]=x`).join("&");
    const response = await send(
      "POST",
      "/api/user/lead",
      { authorization: `Bearer ${alice.apiKey}`, "content-type": "application/x-www-form-urlencoded" },
      form,
    );
    expect(response).toEqual({
      status: 400,
      body: { message: "The form has too many fields (limit 1000)." },
    });
  });
});

describe("multipart bodies as browsers send them", () => {
  /**
   * The Content-Type and body a browser builds for a form with `name`, `type` and a file field:
   * Chrome and Safari (WebKit) use `----WebKitFormBoundary` and 16 mixed-case characters, Firefox
   * 27 dashes and digits. Each part ends with CRLF, the last delimiter with `--` and CRLF.
   */
  const browsers = [
    ["Chrome", "----WebKitFormBoundary7MA4YWxkTrZu0gW"],
    ["Safari", "----WebKitFormBoundaryQx9XzK2hBvF0dLpE"],
    ["Firefox", "---------------------------735323031399963166993862150"],
  ];

  it.each(browsers)("accepts an upload from %s", async (_browser, boundary) => {
    const knowledgebase = await createKnowledgebase(t, alice.apiKey);
    const part = (disposition: string, value: string, type?: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ""}\r\n${value}\r\n`;
    const body =
      part('name="name"', "Opening hours") +
      part('name="type"', "txt") +
      part('name="file"; filename="hours.txt"', "We open at nine and close at five.\n", "text/plain") +
      `--${boundary}--\r\n`;
    const created = await send(
      "POST",
      `/api/user/knowledgebases/${knowledgebase}/documents`,
      {
        authorization: `Bearer ${alice.apiKey}`,
        "content-type": `multipart/form-data; boundary=${boundary}`,
      },
      body,
    );
    expect(created).toMatchObject({ status: 201, body: { data: { name: "Opening hours", type: "txt" } } });
  });

  it("reads the media type in any case, and the boundary as written", async () => {
    const knowledgebase = await createKnowledgebase(t, alice.apiKey);
    const boundary = "AbC";
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nX\r\n--${boundary}--\r\n`;
    const path = `/api/user/knowledgebases/${knowledgebase}/documents`;
    const headers = (type: string) => ({ authorization: `Bearer ${alice.apiKey}`, "content-type": type });
    // Read as a form: the missing type is a validation error, not an unreadable body.
    expect(
      (await send("POST", path, headers(`Multipart/Form-Data; boundary=${boundary}`), body)).status,
    ).toBe(422);
    // A boundary in another case is another boundary: the body has no part delimited by it.
    expect(await send("POST", path, headers("multipart/form-data; boundary=abc"), body)).toEqual({
      status: 400,
      body: { message: "The multipart body could not be read." },
    });
  });
});

describe("deeply nested bodies", () => {
  it("refuses a JSON value nested past the limit with 400 in the route's error shape, storing nothing", async () => {
    const before = await leadCount();
    const deep = `${'{"a":'.repeat(5000)}"x"${"}".repeat(5000)}`;
    const body = `{"campaign_id": ${campaign.id}, "phone_number": "${uniqueUsNumber()}", "variables": ${deep}}`;
    const bearer = { authorization: `Bearer ${alice.apiKey}`, "content-type": "application/json" };
    expect(await send("POST", "/api/user/lead", bearer, body)).toEqual({
      status: 400,
      body: { message: "The input nests lists and objects deeper than 64 levels." },
    });
    const reply = await send(
      "POST",
      "/api/ai/generate-reply",
      bearer,
      `{"assistant_id": 1, "variables": ${deep}}`,
    );
    expect(reply).toMatchObject({ status: 400, body: { success: false, error_code: "QUERY_TOO_NESTED" } });
    expect(await leadCount()).toBe(before);
  });
});

describe("REST paths", () => {
  it("answers a path with malformed percent-encoding as an unknown path", async () => {
    const bearer = { authorization: `Bearer ${alice.apiKey}` };
    expect(await send("DELETE", "/api/user/api-keys/%ZZ", bearer)).toEqual({
      status: 404,
      body: { message: "Not found." },
    });
    expect(await send("GET", "/api/conversations/%E0%A4%A/messages", {})).toEqual({
      status: 404,
      body: { message: "Not found." },
    });
  });
});

describe("ids past the integer range", () => {
  const bearer = () => ({ authorization: `Bearer ${alice.apiKey}` });
  const tooLarge = (field: string, label = field.replaceAll("_", " ")) => {
    const message = `The ${label} field must not be greater than 2147483647.`;
    return { message, errors: { [field]: [message] } };
  };

  it.each([
    ["DELETE", "/api/user/api-keys/2147483648", "id"],
    ["DELETE", "/api/user/leads/9999999999", "id"],
    ["DELETE", "/api/user/phone-numbers/99999999999999999999", "id"],
    ["GET", "/api/user/knowledgebases/9999999999/documents", "knowledgebase_id"],
    ["GET", "/api/user/knowledgebases/1/documents/9999999999", "document_id"],
  ])("answers %s %s with 422 naming the id", async (method, path, field) => {
    expect(await send(method, path, bearer())).toEqual({ status: 422, body: tooLarge(field) });
    // Who is calling still comes first.
    expect((await send(method, path, {})).status).toBe(401);
  });

  it("answers the largest id as a missing resource", async () => {
    const answer = await send("DELETE", "/api/user/api-keys/2147483647", bearer());
    expect(answer.status).toBe(404);
  });

  it("answers a recording past the integer range with 422, after the credential", async () => {
    const path = "/recordings/9999999999.wav";
    const refused = await fetch(`${t.url}${path}`, { headers: bearer() });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toEqual(tooLarge("call_id", "call id"));
    expect((await fetch(`${t.url}${path}`)).status).toBe(401);
    expect((await fetch(`${t.url}/recordings/2147483647.wav`, { headers: bearer() })).status).toBe(404);
  });
});

describe("REST authentication before validation", () => {
  const badBodies: [string, string, unknown][] = [
    ["lead create", "/api/user/lead", { campaign_id: "abc", phone_number: 5 }],
    ["document create", "/api/user/knowledgebases/1/documents", { name: 5, type: [] }],
    ["generate-reply", "/api/ai/generate-reply", { assistant_id: "x", customer_identifier: 7 }],
  ];

  it.each(badBodies)("answers %s without a valid credential 401, not 422", async (_, path, body) => {
    const { body: created } = await t.rest<{ api_key: { token: string } }>("POST", "/api/user/api-keys", {
      token: alice.apiKey,
      body: { name: "Soon revoked" },
    });
    const revoked = created.api_key.token;
    const { body: keys } = await t.rest<{ api_keys: { id: number; name: string }[] }>(
      "GET",
      "/api/user/api-keys",
      { token: alice.apiKey },
    );
    const id = keys.api_keys.find((key) => key.name === "Soon revoked")!.id;
    expect((await t.rest("DELETE", `/api/user/api-keys/${id}`, { token: alice.apiKey })).status).toBe(200);

    const unauthenticated =
      path === "/api/ai/generate-reply"
        ? { success: false, error_code: "UNAUTHENTICATED", message: "Unauthenticated." }
        : { message: "Unauthenticated." };
    for (const token of [undefined, "vgk_not-a-real-key", revoked]) {
      const response = await t.rest("POST", path, { token, body });
      expect(response).toMatchObject({ status: 401, body: unauthenticated });
    }
    const malformed = await send("POST", path, { "content-type": "application/json" }, "{bad json");
    expect(malformed).toEqual({ status: 401, body: unauthenticated });
    // With a valid credential, the same body is a validation error.
    expect((await t.rest("POST", path, { token: alice.apiKey, body })).status).toBe(422);
  });

  it("leaves public routes to validate without a credential", async () => {
    expect((await t.rest("POST", "/api/login", { body: { email: 5 } })).status).toBe(422);
    const started = await send(
      "POST",
      `/api/widget/assistants/${randomUUID()}/conversations`,
      { "content-type": "application/json" },
      "{bad json",
    );
    expect(started).toEqual({ status: 400, body: { message: "The request body is not valid JSON." } });
  });
});
