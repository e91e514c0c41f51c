import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { NotFoundError, ValidationError } from "../../errors.ts";
import type { Account } from "../../generated/prisma/client.ts";
import { emailAddress, ianaTimezone, moneyAmount, parseInput, requiredString } from "../../validation.ts";
import { hashPassword } from "../auth/password.ts";
import type { BillingService } from "../billing/index.ts";
import { BatchLoader } from "../common/batch-loader.ts";

const password = z
  .string({ error: "The password field is required." })
  .min(8, "The password field must be at least 8 characters.")
  .max(1024, "The password field must not be greater than 1024 characters.");

const CreateAccountInput = z.object({
  email: emailAddress(),
  password,
  name: requiredString("name").optional(),
  accountName: requiredString("account name").optional(),
  balance: moneyAmount("balance").default("0"),
  timezone: ianaTimezone().default("UTC"),
  operator: z.boolean().default(false),
});

export class AccountsService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: { billing: BillingService },
  ) {}

  /** Creates an account with its first user (an owner who can log in). */
  async create(input: z.input<typeof CreateAccountInput>) {
    const data = parseInput(CreateAccountInput, input);
    const existing = await this.deps.db.prisma.user.findUnique({ where: { email: data.email } });
    if (existing) throw ValidationError.single("email", "The email has already been taken.");
    const passwordHash = await hashPassword(data.password);
    const displayName = data.name ?? data.email.split("@")[0]!;
    return this.deps.db.prisma.$transaction(async (tx) => {
      const created = await tx.account.create({
        data: { name: data.accountName ?? displayName, timezone: data.timezone, isOperator: data.operator },
      });
      const user = await tx.user.create({
        data: { accountId: created.id, email: data.email, name: displayName, passwordHash, role: "owner" },
      });
      await this.parts.billing.openingBalance(tx, created.id, data.balance);
      const account = await tx.account.findUniqueOrThrow({ where: { id: created.id } });
      return { account, user };
    });
  }

  get(accountId: number) {
    return this.deps.db.prisma.account.findUniqueOrThrow({ where: { id: accountId } });
  }

  list() {
    return this.deps.db.prisma.account.findMany({
      orderBy: { id: "asc" },
      include: { users: { select: { id: true, email: true }, orderBy: { id: "asc" } } },
    });
  }

  /** The first owner's email; a page of accounts asks in one statement (the admin list). */
  ownerEmail(accountId: number): Promise<string | null> {
    return this.ownerEmails.load(accountId);
  }

  private readonly ownerEmails = new BatchLoader<number, string | null>(async (accountIds) => {
    const owners = await this.deps.db.prisma.$queryRaw<{ accountId: number; email: string }[]>`
      SELECT DISTINCT ON ("accountId") "accountId", "email" FROM "users"
      WHERE "accountId" = ANY(${accountIds}::int[]) AND "role" = 'owner'
      ORDER BY "accountId", "id"`;
    return new Map(owners.map((owner) => [owner.accountId, owner.email]));
  }, null);

  /**
   * Grants or takes away the platform operator role (the operator CLI). Services read the role on every
   * call, so the change applies to the account's open sessions at once.
   */
  async setOperator(accountId: number, operator: boolean): Promise<Account> {
    const [account] = await this.deps.db.prisma.account.updateManyAndReturn({
      where: { id: accountId },
      data: { isOperator: operator },
    });
    if (!account) throw new NotFoundError("Account");
    this.deps.logger.info(operator ? "operator role granted" : "operator role revoked", { accountId });
    return account;
  }

  /** Replaces a user's password (the operator CLI's reset); the caller ends the user's sessions. */
  async setPassword(email: string, newPassword: string) {
    const data = parseInput(z.object({ password }), { password: newPassword });
    const user = await this.findOwnerByEmail(email);
    await this.deps.db.prisma.user.update({
      where: { id: user.id },
      data: { passwordHash: await hashPassword(data.password) },
    });
    return user;
  }

  async findOwnerByEmail(email: string) {
    const user = await this.deps.db.prisma.user.findUnique({ where: { email: email.trim().toLowerCase() } });
    if (!user) throw new NotFoundError("User");
    return user;
  }
}
