import { describe, expect, inject, it } from "vitest";
import { createLogger } from "./logger.ts";
import { createEventBus, type PubSubHandle } from "./pubsub.ts";

const redisUrl = inject("redisUrl") ?? undefined;
type Balance = { accountId: number };

/**
 * Publishes until the subscriber hears it: a subscription reaches Redis without being awaited, so
 * the first publications may precede it. Bounded, as every loop in tests.
 */
async function publishUntilHeard(heard: AsyncIterator<Balance>, publish: () => void): Promise<Balance> {
  const next = heard.next();
  for (let attempt = 0; attempt < 200; attempt++) {
    publish();
    const outcome = await Promise.race([next, new Promise((resolve) => setTimeout(resolve, 25, null))]);
    if (outcome) return (outcome as IteratorResult<Balance>).value;
  }
  throw new Error("never heard");
}

describe.skipIf(!redisUrl)("events through Redis (postgres project)", () => {
  it("reach the instances of the same deployment, and never another deployment's on the same Redis", async () => {
    const logger = createLogger("silent");
    const buses: PubSubHandle[] = ["a", "a", "b"].map((deployment) =>
      createEventBus(redisUrl, `test-deployment-${deployment}-${process.pid}`, logger),
    );
    const [publisher, sameDeployment, otherDeployment] = buses as [PubSubHandle, PubSubHandle, PubSubHandle];
    try {
      // Account 1 of each deployment's own database: the same topic and id on both.
      const heard = sameDeployment.pubsub.subscribe("account:balance", 1)[Symbol.asyncIterator]();
      const overheard = otherDeployment.pubsub.subscribe("account:balance", 1)[Symbol.asyncIterator]();
      const own = (accountId: number) => () =>
        otherDeployment.pubsub.publish("account:balance", 1, { accountId });
      // Both subscriptions are in place once each heard something.
      expect(await publishUntilHeard(overheard, own(2))).toEqual({ accountId: 2 });
      expect(
        await publishUntilHeard(heard, () =>
          publisher.pubsub.publish("account:balance", 1, { accountId: 1 }),
        ),
      ).toEqual({ accountId: 1 });
      // After ours, the other deployment hears its own next event, and none of ours before it.
      own(3)();
      let next = (await overheard.next()).value;
      while (next.accountId === 2) next = (await overheard.next()).value;
      expect(next).toEqual({ accountId: 3 });
      await Promise.all([heard.return?.(), overheard.return?.()]);
    } finally {
      await Promise.all(buses.map((bus) => bus.close()));
    }
  });

  it("reports a message it cannot read and keeps delivering the next ones", async () => {
    const errors: string[] = [];
    const silent = () => {};
    const prefix = `test-garbled-${process.pid}`;
    const bus = createEventBus(redisUrl, prefix, {
      debug: silent,
      info: silent,
      warn: silent,
      error: (message) => errors.push(message),
    });
    const { Redis } = await import("ioredis");
    const raw = new Redis(redisUrl!);
    try {
      const heard = bus.pubsub.subscribe("account:balance", 7)[Symbol.asyncIterator]();
      // Once heard, the subscription is in place: the garbled message reaches it.
      await publishUntilHeard(heard, () => bus.pubsub.publish("account:balance", 7, { accountId: 7 }));
      await raw.publish(`${prefix}:events:account:balance:7`, "{not json");
      // Copies of the first event may still be on their way: the next new one is what counts.
      let next = await publishUntilHeard(heard, () =>
        bus.pubsub.publish("account:balance", 7, { accountId: 8 }),
      );
      for (let skipped = 0; skipped < 200 && next.accountId === 7; skipped++)
        next = (await heard.next()).value;
      expect(next).toEqual({ accountId: 8 });
      expect(errors).toContain("redis event delivery failed");
      await heard.return?.();
    } finally {
      raw.disconnect();
      await bus.close();
    }
  });
});
