import { afterEach, expect, it } from "vitest";
import { openPglite } from "./client.ts";

afterEach(() => {
  process.exitCode = undefined;
});

it("keeps the process exit code when the embedded database closes", async () => {
  const db = await openPglite(undefined);
  process.exitCode = 3;
  await db.close();
  expect(process.exitCode).toBe(3);
});
