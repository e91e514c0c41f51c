import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createLogger } from "./logger.ts";
import { GENERATED_KEY_FILE, SecretBox } from "./secret-box.ts";

const logger = createLogger("silent");
const dataDir = mkdtempSync(join(tmpdir(), "voxgate-secrets-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const box = (key: Buffer | undefined, previousKeys: Buffer[] = []) =>
  new SecretBox({ secrets: { key, previousKeys }, dataDir, databaseUrl: undefined }, logger);

describe("SecretBox", () => {
  it("seals with AES-256-GCM so that the text is unreadable and tampering is detected", () => {
    const sealed = box(randomBytes(32)).seal("hunter2 with ünïcödé");
    expect(sealed).not.toContain("hunter2");
    const key = randomBytes(32);
    const value = box(key).seal("hunter2");
    expect(box(key).open(value)).toBe("hunter2");
    expect(box(key).seal("hunter2")).not.toBe(value);
    const parts = value.split(":");
    const tampered = [...parts.slice(0, 3), Buffer.from("hunter3").toString("base64url")].join(":");
    expect(() => box(key).open(tampered)).toThrow();
    expect(() => box(randomBytes(32)).open(value)).toThrow(/no configured secrets key/);
  });

  it("opens what a previous key sealed after a rotation, and reports it as stale", () => {
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const sealed = box(oldKey).seal("s3cret");
    const rotated = box(newKey, [oldKey]);
    expect(rotated.open(sealed)).toBe("s3cret");
    expect(rotated.isStale(sealed)).toBe(true);
    expect(rotated.isStale(rotated.seal("s3cret"))).toBe(false);
  });

  it("without a configured key, generates one into the data directory on first use and keeps it", () => {
    const first = box(undefined);
    const sealed = first.seal("kept");
    const file = join(dataDir, GENERATED_KEY_FILE);
    expect(Buffer.from(readFileSync(file, "utf8").trim(), "base64")).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(box(undefined).open(sealed)).toBe("kept");
  });
});
