import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { NotFoundError } from "../../errors.ts";
import type { SecretBox } from "../../secret-box.ts";
import { parseInput } from "../../validation.ts";
import type { KeyProvider } from "../voice/index.ts";
import { KEY_PROVIDERS } from "./catalogue.ts";

/** How long a call start reuses an account's keys it read: a change on another instance shows within it. */
const KEYS_TTL_MS = 30_000;
/** Accounts whose keys are kept; past it the oldest entry goes. */
const MAX_CACHED_ACCOUNTS = 5_000;

const SetKeyInput = z.object({
  provider: z.enum(KEY_PROVIDERS, {
    error: `The provider field must be one of ${KEY_PROVIDERS.join(", ")}.`,
  }),
  key: z
    .string({ error: "The key field must be a string." })
    .trim()
    .min(8, "The key field must be at least 8 characters.")
    .max(512, "The key field must not be greater than 512 characters.")
    .regex(/^[\x21-\x7e]+$/, "The key field must be printable characters without spaces."),
});

/** What is shown of a stored key: never the key itself. */
export interface ProviderKeySummary {
  provider: KeyProvider;
  lastFour: string;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * Accounts' own provider keys, sealed with the secrets key (VOXGATE_SECRETS_KEY) and used for the
 * account's calls instead of the deployment's (docs/voice.md#providers-and-models).
 */
export class ProviderKeysService {
  private readonly cache = new Map<number, { keys: Partial<Record<KeyProvider, string>>; until: number }>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: { secrets: SecretBox },
  ) {}

  async list(accountId: number): Promise<ProviderKeySummary[]> {
    const rows = await this.deps.db.prisma.accountProviderKey.findMany({
      where: { accountId },
      orderBy: { provider: "asc" },
      select: { provider: true, lastFour: true, createdAt: true, updatedAt: true },
    });
    return rows.map((row) => ({ ...row, provider: row.provider as KeyProvider }));
  }

  /** Stores (or replaces) the account's key for a provider. */
  async set(accountId: number, input: { provider: unknown; key: unknown }): Promise<ProviderKeySummary> {
    const { provider, key } = parseInput(SetKeyInput, input);
    const sealedKey = this.parts.secrets.seal(key);
    const lastFour = key.slice(-4);
    const row = await this.deps.db.prisma.accountProviderKey.upsert({
      where: { accountId_provider: { accountId, provider } },
      create: { accountId, provider, sealedKey, lastFour },
      update: { sealedKey, lastFour },
      select: { provider: true, lastFour: true, createdAt: true, updatedAt: true },
    });
    this.cache.delete(accountId);
    this.deps.logger.info("provider key set", { accountId, provider });
    return { ...row, provider };
  }

  /** Forgets the account's key for a provider: its calls use the deployment's again. */
  async remove(accountId: number, provider: unknown): Promise<ProviderKeySummary> {
    const { provider: name } = parseInput(SetKeyInput.pick({ provider: true }), { provider });
    const row = await this.deps.db.prisma.accountProviderKey.findUnique({
      where: { accountId_provider: { accountId, provider: name } },
      select: { provider: true, lastFour: true, createdAt: true, updatedAt: true },
    });
    if (!row) throw new NotFoundError("Provider key");
    await this.deps.db.prisma.accountProviderKey.deleteMany({ where: { accountId, provider: name } });
    this.cache.delete(accountId);
    this.deps.logger.info("provider key removed", { accountId, provider: name });
    return { ...row, provider: name };
  }

  /**
   * The account's keys in clear, for its calls. A key no configured secrets key opens (the key was
   * rotated away) is left out with a warning: the call uses the deployment's.
   */
  async keysFor(accountId: number, now = Date.now()): Promise<Partial<Record<KeyProvider, string>>> {
    const cached = this.cache.get(accountId);
    if (cached && cached.until > now) return cached.keys;
    const rows = await this.deps.db.prisma.accountProviderKey.findMany({
      where: { accountId },
      select: { provider: true, sealedKey: true },
    });
    const keys: Partial<Record<KeyProvider, string>> = {};
    for (const row of rows) {
      try {
        keys[row.provider as KeyProvider] = this.parts.secrets.open(row.sealedKey);
      } catch (error) {
        this.deps.logger.warn("an account's provider key cannot be opened; the deployment's key is used", {
          accountId,
          provider: row.provider,
          error,
        });
      }
    }
    this.cache.delete(accountId);
    if (this.cache.size >= MAX_CACHED_ACCOUNTS) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(accountId, { keys, until: now + KEYS_TTL_MS });
    return keys;
  }
}
