import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { NotFoundError } from "../../errors.ts";
import { type Actor, type EventSink, systemActor } from "../../events.ts";
import { parseInput, requiredString } from "../../validation.ts";
import type { CredentialCache } from "../auth/credential-cache.ts";
import { mintToken } from "../auth/tokens.ts";

/** The account and user a key is issued for: the viewer over the API, an operator's choice in the CLI. */
export interface KeyOwner {
  accountId: number;
  userId: number;
}

const CreateApiKeyInput = z.object({ name: requiredString("name") });

export class ApiKeysService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: { credentials: CredentialCache; events: EventSink },
  ) {}

  /**
   * Creates a key and returns its token: the only time the token exists outside the caller's hands.
   * `actor`: who asked (audited as api_key.created); Voxgate itself for the CLI and the seed.
   */
  async create(owner: KeyOwner, input: { name?: unknown }, actor: Actor = systemActor) {
    const { name } = parseInput(CreateApiKeyInput, input);
    const minted = mintToken("apiKey");
    const apiKey = await this.deps.db.prisma.$transaction(async (tx) => {
      const created = await tx.apiKey.create({
        data: {
          accountId: owner.accountId,
          userId: owner.userId,
          name,
          lookupId: minted.lookupId,
          tokenHash: minted.tokenHash,
        },
      });
      await this.parts.events.emit(tx, {
        type: "api_key.created",
        accountId: owner.accountId,
        actor,
        target: { type: "apiKey", id: created.id },
        details: { name },
      });
      return created;
    });
    this.deps.logger.info("api key created", { accountId: owner.accountId, apiKeyId: apiKey.id });
    return { apiKey, token: minted.token };
  }

  list(accountId: number) {
    return this.deps.db.prisma.apiKey.findMany({
      where: { accountId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
  }

  /** Deletes one of the account's keys; someone else's key is reported as not found. */
  async delete(accountId: number, id: number, actor: Actor = systemActor): Promise<void> {
    await this.deps.db.prisma.$transaction(async (tx) => {
      const key = await tx.apiKey.findFirst({ where: { id, accountId }, select: { name: true } });
      // deleteMany: a key deleted meanwhile by another request is not found, not an error.
      const { count } = await tx.apiKey.deleteMany({ where: { id, accountId } });
      if (!key || count === 0) throw new NotFoundError("API key");
      await this.parts.events.emit(tx, {
        type: "api_key.deleted",
        accountId,
        actor,
        target: { type: "apiKey", id },
        details: { name: key.name },
      });
    });
    this.parts.credentials.revoked({ kind: "apiKey", id });
    this.deps.logger.info("api key deleted", { accountId, apiKeyId: id });
  }
}
