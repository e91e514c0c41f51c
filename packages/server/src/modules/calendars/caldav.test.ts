import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CalDavProvider } from "./caldav.ts";

// Answers in the shapes of servers other than Radicale: Nextcloud/SabreDAV prefixes (d:, cal:) with
// CDATA, and entity-escaped calendar data with &#13; line ends (as iCloud sends it).
const EVENT = (uid: string, start: string, end: string) =>
  [
    "BEGIN:VCALENDAR",
    "BEGIN:VEVENT",
    `UID:${uid}`,
    `DTSTART:${start}`,
    `DTEND:${end}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ].join("\r\n");
const MULTISTATUS = `<?xml version="1.0"?>
<d:multistatus xmlns:d="DAV:" xmlns:cal="urn:ietf:params:xml:ns:caldav">
 <d:response><d:href>/cal/a.ics</d:href><d:propstat><d:prop>
  <cal:calendar-data><![CDATA[${EVENT("a", "20270201T090000Z", "20270201T100000Z")}]]></cal:calendar-data>
 </d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
 <d:response><d:href>/cal/b.ics</d:href><d:propstat><d:prop>
  <calendar-data xmlns="urn:ietf:params:xml:ns:caldav">${EVENT(
    "b&amp;c",
    "20270201T120000Z",
    "20270201T123000Z",
  ).replaceAll("\r\n", "&#13;\n")}</calendar-data>
 </d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response>
</d:multistatus>`;
const CALENDAR_PROPFIND = `<?xml version="1.0"?><d:multistatus xmlns:d="DAV:" xmlns:cal="urn:ietf:params:xml:ns:caldav">
<d:response><d:href>/cal/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/><cal:calendar/></d:resourcetype>
</d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>`;
const PLAIN_PROPFIND = CALENDAR_PROPFIND.replace("<cal:calendar/>", "").replace("/cal/", "/home/");

let server: Server;
let base: string;
const seen: { method: string; url: string; authorization: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    seen.push({
      method: request.method ?? "",
      url: request.url ?? "",
      authorization: request.headers.authorization,
    });
    request.resume();
    if (request.url === "/silent/") return; // never answers
    const xml = (body: string) => {
      response.writeHead(207, { "content-type": "application/xml; charset=utf-8" });
      response.end(body);
    };
    if (request.method === "PROPFIND")
      return xml(request.url === "/home/" ? PLAIN_PROPFIND : CALENDAR_PROPFIND);
    if (request.method === "REPORT") return xml(MULTISTATUS);
    response.writeHead(405).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const access = (path: string) => ({
  url: `${base}${path}`,
  readUrls: [],
  username: "desk",
  secret: "pässword",
});

describe("CalDavProvider with other servers' answers", () => {
  const provider = new CalDavProvider({ timeoutMs: 2_000, allowList: ["127.0.0.1"] });

  it("reads prefixed, CDATA and entity-escaped calendar data, with Basic authentication", async () => {
    await provider.verify(access("/cal/"));
    const busy = await provider.busy(
      access("/cal/"),
      { start: Date.parse("2027-02-01T00:00:00Z"), end: Date.parse("2027-02-02T00:00:00Z") },
      "UTC",
    );
    expect(busy.map((interval) => new Date(interval.start).toISOString())).toEqual([
      "2027-02-01T09:00:00.000Z",
      "2027-02-01T12:00:00.000Z",
    ]);
    const report = seen.find((request) => request.method === "REPORT")!;
    expect(report.authorization).toBe(`Basic ${Buffer.from("desk:pässword").toString("base64")}`);
  });

  it("names a collection that is not a calendar, a silent server, and an address the guard refuses", async () => {
    await expect(provider.verify(access("/home/"))).rejects.toMatchObject({ reason: "not_a_calendar" });
    const impatient = new CalDavProvider({ timeoutMs: 200, allowList: ["127.0.0.1"] });
    await expect(impatient.verify(access("/silent/"))).rejects.toMatchObject({ reason: "timeout" });
    const guarded = new CalDavProvider({ timeoutMs: 2_000, allowList: [] });
    const before = seen.length;
    await expect(guarded.verify(access("/cal/"))).rejects.toMatchObject({ reason: "blocked_address" });
    expect(seen.length).toBe(before);
  });
});
