import { createServer, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  AddressPolicy,
  closeSafeFetchConnections,
  type OutboundFailure,
  OutboundRequestError,
  safeFetch,
} from "./safe-fetch.ts";

const LOCAL = ["127.0.0.1"];

async function serve(handler: RequestListener): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function failureOf(promise: Promise<unknown>): Promise<OutboundFailure> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OutboundRequestError);
  return (error as OutboundRequestError).reason;
}

describe("safeFetch", () => {
  let site: { server: Server; url: string };
  const requests: { url: string; method: string; authorization: string | undefined }[] = [];
  /** Answers of /held: sent only when a test says so. */
  const held: ServerResponse[] = [];

  beforeAll(async () => {
    site = await serve((request, response) => {
      requests.push({
        url: request.url ?? "",
        method: request.method ?? "",
        authorization: request.headers.authorization,
      });
      if (request.url === "/page") {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        response.end("<p>hello</p>");
      } else if (request.url === "/to-metadata") {
        response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" });
        response.end();
      } else if (request.url === "/to-page") {
        response.writeHead(303, { location: "/page" });
        response.end();
      } else if (request.url === "/loop") {
        response.writeHead(302, { location: "/loop" });
        response.end();
      } else if (request.url === "/big") {
        // No content-length: the limit must trip while streaming.
        response.writeHead(200, { "content-type": "text/plain" });
        const chunk = Buffer.alloc(64 * 1024, "a");
        let sent = 0;
        const push = () => {
          while (sent < 4 * 1024 * 1024) {
            sent += chunk.length;
            if (!response.write(chunk)) return response.once("drain", push);
          }
          response.end();
        };
        push();
      } else if (request.url === "/held") {
        held.push(response);
      } else if (request.url === "/image") {
        response.writeHead(200, { "content-type": "image/png" });
        response.end("png");
      } else {
        response.writeHead(404);
        response.end();
      }
    });
  });

  afterAll(async () => {
    site.server.closeAllConnections();
    await new Promise((resolve) => site.server.close(resolve));
  });

  const base = { timeoutMs: 5_000, maxBytes: 1024 * 1024 };

  it("refuses a loopback address without an allow-list", async () => {
    expect(await failureOf(safeFetch(`${site.url}/page`, { ...base, allowList: [] }))).toBe(
      "blocked_address",
    );
  });

  it("refuses a loopback host name after resolving it", async () => {
    const port = new URL(site.url).port;
    expect(await failureOf(safeFetch(`http://localhost:${port}/page`, { ...base, allowList: [] }))).toBe(
      "blocked_address",
    );
  });

  it("reaches an allow-listed address by IP, CIDR or host name", async () => {
    const port = new URL(site.url).port;
    for (const [url, allowList] of [
      [`${site.url}/page`, ["127.0.0.1"]],
      [`${site.url}/page`, ["127.0.0.0/8"]],
      [`http://localhost:${port}/page`, ["localhost"]],
    ] as const) {
      const result = await safeFetch(url, { ...base, allowList });
      expect(result.status).toBe(200);
      expect(result.body.toString()).toBe("<p>hello</p>");
      expect(result.headers.get("content-type")).toContain("text/html");
    }
  });

  it("follows redirects, reporting the final URL and turning 303 into GET", async () => {
    const result = await safeFetch(`${site.url}/to-page`, {
      ...base,
      method: "POST",
      body: "x",
      allowList: LOCAL,
    });
    expect(result.url).toBe(`${site.url}/page`);
    expect(requests.at(-1)).toMatchObject({ url: "/page", method: "GET" });
  });

  it("refuses a redirect to the cloud metadata address even when the first hop is allowed, naming the refused hop", async () => {
    const error = await safeFetch(`${site.url}/to-metadata`, { ...base, allowList: LOCAL }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OutboundRequestError);
    expect(error).toMatchObject({
      reason: "blocked_address",
      refused: { url: "http://169.254.169.254/latest/meta-data/", address: "169.254.169.254" },
    });
  });

  it("names the addresses a refused host name resolved to", async () => {
    const port = new URL(site.url).port;
    const error = await safeFetch(`http://localhost:${port}/page`, { ...base, allowList: [] }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({
      reason: "blocked_address",
      refused: { url: `http://localhost:${port}/page` },
    });
    expect((error as OutboundRequestError).refused?.address).toMatch(/127\.0\.0\.1|::1/);
  });

  it("stops a redirect loop", async () => {
    expect(
      await failureOf(safeFetch(`${site.url}/loop`, { ...base, maxRedirects: 3, allowList: LOCAL })),
    ).toBe("too_many_redirects");
  });

  it("refuses an oversized body while streaming it", async () => {
    expect(
      await failureOf(safeFetch(`${site.url}/big`, { ...base, maxBytes: 100_000, allowList: LOCAL })),
    ).toBe("too_large");
  });

  it("gives up after the time limit, without waiting for the answer", async () => {
    const before = held.length;
    expect(
      await failureOf(safeFetch(`${site.url}/held`, { ...base, timeoutMs: 200, allowList: LOCAL })),
    ).toBe("timeout");
    // The request arrived and its answer was never sent: only the time limit can have ended the call.
    expect(held.length).toBe(before + 1);
    expect(held.at(-1)!.writableEnded).toBe(false);
    held.at(-1)!.end("late");
  });

  it("refuses a content type the caller does not accept", async () => {
    const options = { ...base, allowList: LOCAL, acceptContentTypes: ["text/html", "text/plain"] };
    expect(await failureOf(safeFetch(`${site.url}/image`, options))).toBe("bad_content_type");
    expect((await safeFetch(`${site.url}/page`, options)).status).toBe(200);
  });

  it("refuses URLs that are not http or https", async () => {
    for (const url of [
      "file:///etc/passwd",
      "ftp://example.com/",
      "not a url",
      "http://user:pw@example.com/",
    ]) {
      expect(await failureOf(safeFetch(url, { ...base, allowList: [] }))).toBe("invalid_url");
    }
  });

  it("reports an unreachable server as a network failure", async () => {
    const closed = await serve(() => {});
    await new Promise((resolve) => closed.server.close(resolve));
    expect(await failureOf(safeFetch(closed.url, { ...base, allowList: LOCAL }))).toBe("network");
  });
});

describe("safeFetch connection reuse", () => {
  /** A site that counts the connections it accepts and how many are still open. */
  async function countingSite() {
    const sockets = new Set<Socket>();
    const paths: string[] = [];
    let accepted = 0;
    const site = await serve((request, response) => {
      paths.push(request.url ?? "");
      response.writeHead(200, { "content-type": "text/plain" });
      response.end("ok");
    });
    site.server.on("connection", (socket: Socket) => {
      accepted++;
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    return { ...site, paths, accepted: () => accepted, open: () => sockets.size };
  }
  const options = { timeoutMs: 5_000, maxBytes: 1024, allowList: LOCAL };

  it("reuses one connection for consecutive requests and closes it when the app stops", async () => {
    await closeSafeFetchConnections();
    const site = await countingSite();
    try {
      for (let index = 0; index < 10; index++) {
        expect((await safeFetch(`${site.url}/page-${index}`, options)).body.toString()).toBe("ok");
      }
      // undici may open a second connection while the first is being released; never one per request.
      expect(site.accepted()).toBeLessThanOrEqual(2);
      expect(site.open()).toBe(site.accepted());
      await closeSafeFetchConnections();
      for (let tries = 0; site.open() > 0; tries++) {
        expect(tries).toBeLessThan(100);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // Later requests open a new pool.
      expect((await safeFetch(`${site.url}/again`, options)).status).toBe(200);
      expect(site.paths.at(-1)).toBe("/again");
    } finally {
      await closeSafeFetchConnections();
      await new Promise((resolve) => site.server.close(resolve));
    }
  });

  it("never lends a connection opened under one allow-list to a call without it", async () => {
    const site = await countingSite();
    try {
      expect((await safeFetch(`${site.url}/allowed`, options)).status).toBe(200);
      expect(site.open()).toBe(1);
      expect(await failureOf(safeFetch(`${site.url}/refused`, { ...options, allowList: [] }))).toBe(
        "blocked_address",
      );
      expect(site.paths).toEqual(["/allowed"]);
    } finally {
      await closeSafeFetchConnections();
      await new Promise((resolve) => site.server.close(resolve));
    }
  });
});

describe("AddressPolicy", () => {
  const policy = new AddressPolicy([]);

  it.each([
    "127.0.0.1",
    "10.1.2.3",
    "172.16.0.1",
    "192.168.1.1",
    "169.254.169.254",
    "100.64.0.1",
    "0.0.0.0",
    "224.0.0.1",
    "255.255.255.255",
    "240.0.0.1",
    "::1",
    "::",
    "fe80::1",
    "fd00:ec2::254",
    "ff02::1",
    "::ffff:127.0.0.1",
    "::ffff:10.0.0.1",
    "64:ff9b::a00:1",
  ])("blocks %s", (address) => {
    expect(policy.addressAllowed(address)).toBe(false);
  });

  it.each(["93.184.216.34", "8.8.8.8", "2606:4700::1111"])("allows public %s", (address) => {
    expect(policy.addressAllowed(address)).toBe(true);
  });

  it("lets the allow-list open private ranges and nothing more", () => {
    const allowing = new AddressPolicy(["10.0.0.0/8", "::1", "intranet.test"]);
    expect(allowing.addressAllowed("10.20.30.40")).toBe(true);
    expect(allowing.addressAllowed("::1")).toBe(true);
    expect(allowing.addressAllowed("192.168.0.1")).toBe(false);
    expect(allowing.hostAllowed("INTRANET.test")).toBe(true);
    expect(allowing.hostAllowed("other.test")).toBe(false);
  });
});
