import { describe, expect, it } from "vitest";
import type { Call } from "./generated/prisma/client.ts";
import { InProcessBus } from "./in-process-events.ts";
import { createLogger } from "./logger.ts";

function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger("info", {
    format: "json",
    destination: { write: (line) => void lines.push(JSON.parse(line)) },
  });
  return { logger, lines };
}

const call = { id: 7 } as Call;

describe("InProcessBus", () => {
  it("awaits each listener in the order registered before publish returns", async () => {
    const { logger } = capturingLogger();
    const bus = new InProcessBus(logger);
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    bus.on("call.finished", async ({ call }) => {
      seen.push(`first started ${call.id}`);
      await gate;
      seen.push("first done");
    });
    bus.on("call.finished", async () => {
      seen.push("second");
    });
    bus.on("call.webhook_answered", async () => {
      seen.push("another event");
    });
    let published = false;
    const publishing = bus.publish("call.finished", { call }).then(() => {
      published = true;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual(["first started 7"]);
    expect(published).toBe(false);
    release();
    await publishing;
    expect(seen).toEqual(["first started 7", "first done", "second"]);
  });

  it("logs a failing listener with the event's call, and still tells the others without failing the publisher", async () => {
    const { logger, lines } = capturingLogger();
    const bus = new InProcessBus(logger);
    const told: number[] = [];
    bus.on("call.webhook_answered", async () => {
      throw new Error("the database went away");
    });
    bus.on("call.webhook_answered", async ({ callId }) => {
      told.push(callId);
    });
    await expect(bus.publish("call.webhook_answered", { callId: 3, response: {} })).resolves.toBeUndefined();
    expect(told).toEqual([3]);
    const failure = lines.find((line) => line.msg === "an in-process event listener failed");
    expect(failure).toMatchObject({ type: "call.webhook_answered", callId: 3 });
  });

  it("publishes to nobody when no one listens", async () => {
    const { logger, lines } = capturingLogger();
    await new InProcessBus(logger).publish("call.finished", { call });
    expect(lines).toEqual([]);
  });
});
