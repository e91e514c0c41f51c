import { Agent, get } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/test-app.ts";
import { HTTP_KEEP_ALIVE } from "../limits.ts";

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

function healthOn(agent: Agent) {
  return new Promise<{ keepAlive: string | undefined; port: number | undefined }>((resolve, reject) => {
    get(`${t.url}/healthz`, { agent }, (response) => {
      response.resume();
      response.on("end", () =>
        resolve({ keepAlive: String(response.headers["keep-alive"]), port: response.socket?.localPort }),
      );
    }).on("error", reject);
  });
}

describe("idle connections", () => {
  it("tells clients it keeps an idle connection longer than they and load balancers wait, and serves the next request on it", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await healthOn(agent);
      // The setting as the server announces it (nothing is timed): clients that read the header
      // keep an idle connection for less than this.
      expect(first.keepAlive).toBe(`timeout=${HTTP_KEEP_ALIVE.idleMs / 1000}`);
      // The same client-side port: the connection was reused, not reopened.
      expect((await healthOn(agent)).port).toBe(first.port);
    } finally {
      agent.destroy();
    }
  });
});
