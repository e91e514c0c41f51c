import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { durableDatabase } from "../../../test/fixtures/durable-database.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { startTestApp } from "../../../test/support/test-app.ts";
import { identifierHash, saltOf } from "./identifiers.ts";

const run = promisify(execFile);
const serverDir = join(import.meta.dirname, "..", "..", "..");

describe("customers:erase from the command line", () => {
  it("erases a customer named by a national number, with no server running, and leaves the tombstone", {
    timeout: 180_000,
  }, async () => {
    const database = await durableDatabase();
    try {
      const phone = uniqueUsNumber();
      const first = await startTestApp({ database: database.first });
      const owner = await first.createAccount();
      const campaign = await telephonyFixtures(first).createCampaign(owner);
      await first.app.services.leads.create(owner.accountId, { campaignId: campaign.id, phoneNumber: phone });
      await first.close();

      const national = phone.slice(2);
      const { stdout } = await run(
        process.execPath,
        [
          "--import",
          "tsx",
          "src/cli.ts",
          "customers:erase",
          "--account",
          String(owner.accountId),
          "--phone",
          `(${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)}`,
          "--country",
          "US",
          "--wait",
          "--json",
        ],
        { cwd: serverDir, env: { ...process.env, ...database.env, LOG_LEVEL: "silent" } },
      );
      const { job } = JSON.parse(stdout) as {
        job: { state: string; counts: Record<string, number>; identifierHash: string };
      };
      expect(job).toMatchObject({ state: "done", counts: { leads: 1 } });

      const second = await startTestApp({ database: database.next });
      try {
        const prisma = second.app.db.prisma;
        expect(job.identifierHash).toBe(
          identifierHash(await saltOf(prisma, owner.accountId), { kind: "phone", value: phone }),
        );
        expect(await prisma.lead.count({ where: { phoneNumber: phone } })).toBe(0);
        expect(
          await prisma.customerTombstone.count({ where: { accountId: owner.accountId, erasedBy: "cli" } }),
        ).toBe(1);
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });
});
