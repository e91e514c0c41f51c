import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findRadicale, type RunningRadicale, startRadicale } from "../../../test/support/radicale.ts";
import { CalDavProvider } from "./caldav.ts";
import { eventStarts } from "./ical.ts";

const PASSWORD = "desk-password";

/**
 * Radicale behind a proxy that passes every request on, but holds back the answer to the first PUT
 * once Radicale has stored it: a write that landed whose answer the client never got.
 */
describe.skipIf(!findRadicale())("a CalDAV event whose write timed out after it landed", () => {
  let radicale: RunningRadicale;
  let proxy: Server;
  let proxyUrl: string;
  let calendar: string;
  const puts: number[] = [];

  beforeAll(async () => {
    radicale = await startRadicale({ desk: PASSWORD });
    calendar = await radicale.makeCalendar("desk", "bookings");
    proxy = createServer(async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      const headers = Object.fromEntries(
        Object.entries(request.headers).filter(
          (entry): entry is [string, string] => typeof entry[1] === "string" && entry[0] !== "host",
        ),
      );
      const answer = await fetch(`${radicale.url}${request.url}`, {
        method: request.method ?? "GET",
        headers,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      const body = Buffer.from(await answer.arrayBuffer());
      if (request.method === "PUT") {
        puts.push(answer.status);
        // Stored, but the answer never comes: the client's attempt times out.
        if (puts.length === 1) return;
      }
      response.writeHead(answer.status, {
        "content-type": answer.headers.get("content-type") ?? "text/plain",
      });
      response.end(body);
    });
    await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    proxy?.closeAllConnections();
    await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
    await radicale?.stop();
  });

  it("retries the PUT, recognises its own event in the 412, and leaves exactly one event", async () => {
    const provider = new CalDavProvider({ timeoutMs: 1_000, allowList: ["127.0.0.1"], retryBaseMs: 5 });
    const access = {
      url: calendar.replace(radicale.url, proxyUrl),
      readUrls: [],
      username: "desk",
      secret: PASSWORD,
    };
    const start = new Date("2027-04-05T09:00:00Z");
    const event = {
      uid: "voxgate-replayed-booking",
      start,
      end: new Date("2027-04-05T09:30:00Z"),
      summary: "Consultation",
    };
    const { externalId } = await provider.createEvent(access, event);
    // The first PUT landed (201), its replay met the stored event (412).
    expect(puts).toEqual([201, 412]);
    expect(externalId).toBe(`${access.url}voxgate-replayed-booking.ics`);
    const busy = await provider.busy(
      access,
      { start: start.getTime() - 3_600_000, end: start.getTime() + 3_600_000 },
      "UTC",
    );
    expect(busy).toEqual([{ start: start.getTime(), end: start.getTime() + 1_800_000 }]);

    // Another event under the same name is still a conflict, not taken for ours.
    await expect(
      provider.createEvent(access, {
        ...event,
        start: new Date("2027-04-05T11:00:00Z"),
        end: new Date("2027-04-05T11:30:00Z"),
      }),
    ).rejects.toMatchObject({ reason: "conflict", status: 412 });
    const stored = await fetch(externalId.replace(proxyUrl, radicale.url), {
      headers: { authorization: `Basic ${Buffer.from(`desk:${PASSWORD}`).toString("base64")}` },
    });
    expect(eventStarts(await stored.text())).toEqual([
      { uid: "voxgate-replayed-booking", start: start.getTime() },
    ]);
  });
});
