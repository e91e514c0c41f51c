import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "./env.ts";
import type { Logger } from "./logger.ts";

/** Where the generated key lives when VOXGATE_SECRETS_KEY is not set. */
export const GENERATED_KEY_FILE = "secrets.key";

const ALGORITHM = "aes-256-gcm";
const IV_BYTES = 12;

/**
 * Seals secrets the server must use again later (a calendar's password), so that a copy of the
 * database alone does not reveal them. AES-256-GCM; each sealed value names the key that sealed it
 * (`keyId:iv:tag:ciphertext`, base64url parts), so keys can be rotated: the current key seals,
 * previous keys still open what they sealed.
 *
 * The key is resolved on first use, not at start: a server that stores no secrets never needs one
 * (and never writes a generated key file).
 */
export class SecretBox {
  private keys: { current: Key; all: Map<string, Buffer> } | null = null;

  constructor(
    private readonly config: Pick<Config, "secrets" | "dataDir" | "databaseUrl">,
    private readonly logger: Logger,
  ) {}

  seal(plaintext: string): string {
    const { current } = this.resolve();
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, current.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    return [current.id, iv, cipher.getAuthTag(), ciphertext]
      .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
      .join(":");
  }

  /** Opens a sealed value; throws when no configured key sealed it or it was altered. */
  open(sealed: string): string {
    const [id, iv, tag, ciphertext] = sealed.split(":");
    const key = id ? this.resolve().all.get(id) : undefined;
    if (!key || iv === undefined || tag === undefined || ciphertext === undefined) {
      throw new Error(`no configured secrets key (id ${id ?? "?"}) sealed this value`);
    }
    const decipher = createDecipheriv(ALGORITHM, key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString(
      "utf8",
    );
  }

  /** Whether `sealed` was sealed with an older key (a rotation re-seals it). */
  isStale(sealed: string): boolean {
    return sealed.split(":")[0] !== this.resolve().current.id;
  }

  private resolve() {
    if (this.keys) return this.keys;
    const current = toKey(this.config.secrets.key ?? this.generatedKey());
    const all = new Map<string, Buffer>();
    for (const key of this.config.secrets.previousKeys.map(toKey)) all.set(key.id, key.key);
    all.set(current.id, current.key);
    this.keys = { current, all };
    return this.keys;
  }

  /**
   * The embedded set-up (`npm start`) has a key without configuration, like its generated admin
   * password: kept beside the database it protects, readable by the server's user only.
   */
  private generatedKey(): Buffer {
    const file = join(this.config.dataDir, GENERATED_KEY_FILE);
    try {
      return Buffer.from(readFileSync(file, "utf8").trim(), "base64");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    mkdirSync(this.config.dataDir, { recursive: true });
    const key = randomBytes(32);
    // `wx`: when two processes race, the loser fails here and the retry reads the winner's key.
    try {
      writeFileSync(file, `${key.toString("base64")}\n`, { flag: "wx", mode: 0o600 });
      chmodSync(file, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST") return this.generatedKey();
      throw error;
    }
    if (this.config.databaseUrl) {
      this.logger.warn(
        "VOXGATE_SECRETS_KEY is not set: generated a secrets key in the data directory; other instances sharing the database cannot open what this one seals. Set VOXGATE_SECRETS_KEY on every instance.",
        { file },
      );
    } else this.logger.info("generated a secrets key", { file });
    return key;
  }
}

interface Key {
  id: string;
  key: Buffer;
}

/** A key's id: a short hash, which says which key sealed a value without revealing the key. */
function toKey(key: Buffer): Key {
  if (key.length !== 32) throw new Error("a secrets key must be 32 bytes");
  return { id: createHash("sha256").update(key).digest("base64url").slice(0, 8), key };
}
