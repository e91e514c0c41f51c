import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { NotFoundError, ValidationError } from "../../errors.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { emailAddress, ianaTimezone, moneyAmount, parseInput, requiredString } from "../../validation.ts";
import { hashPassword } from "../auth/password.ts";

const CreateAccountInput = z.object({
  email: emailAddress(),
  password: z
    .string({ error: "The password field is required." })
    .min(8, "The password field must be at least 8 characters.")
    .max(1024, "The password field must not be greater than 1024 characters."),
  name: requiredString("name").optional(),
  accountName: requiredString("account name").optional(),
  balance: moneyAmount("balance").default("0"),
  timezone: ianaTimezone().default("UTC"),
});

const CreditInput = z.object({
  amount: moneyAmount().refine((value) => Number(value) > 0, "The amount field must be greater than 0."),
  description: z.string().max(255).default("Balance top-up"),
});

export class AccountsService {
  constructor(private readonly deps: ServiceDeps) {}

  /** Creates an account with its first user (an owner who can log in). */
  async create(input: z.input<typeof CreateAccountInput>) {
    const data = parseInput(CreateAccountInput, input);
    const existing = await this.deps.db.prisma.user.findUnique({ where: { email: data.email } });
    if (existing) throw ValidationError.single("email", "The email has already been taken.");
    const passwordHash = await hashPassword(data.password);
    const displayName = data.name ?? data.email.split("@")[0]!;
    return this.deps.db.prisma.$transaction(async (tx) => {
      const account = await tx.account.create({
        data: { name: data.accountName ?? displayName, balance: data.balance, timezone: data.timezone },
      });
      const user = await tx.user.create({
        data: { accountId: account.id, email: data.email, name: displayName, passwordHash },
      });
      if (new Prisma.Decimal(data.balance).gt(0)) {
        await tx.ledgerEntry.create({
          data: {
            accountId: account.id,
            kind: "credit",
            amount: data.balance,
            balanceAfter: data.balance,
            description: "Opening balance",
          },
        });
      }
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

  async findOwnerByEmail(email: string) {
    const user = await this.deps.db.prisma.user.findUnique({ where: { email: email.trim().toLowerCase() } });
    if (!user) throw new NotFoundError("User");
    return user;
  }

  /** Adds money to an account in one statement, records it in the ledger and tells subscribers. */
  async credit(accountId: number, input: { amount: unknown; description?: unknown }) {
    const { amount, description } = parseInput(CreditInput, input);
    const account = await this.deps.db.prisma.$transaction(async (tx) => {
      const [updated] = await tx.$queryRaw<{ balance: Prisma.Decimal }[]>`
        UPDATE "accounts" SET "balance" = "balance" + ${amount}::numeric, "updatedAt" = now()
        WHERE "id" = ${accountId} RETURNING "balance"`;
      if (!updated) throw new NotFoundError("Account");
      await tx.ledgerEntry.create({
        data: { accountId, kind: "credit", amount, balanceAfter: updated.balance, description },
      });
      return tx.account.findUniqueOrThrow({ where: { id: accountId } });
    });
    this.deps.pubsub.publish("account:balance", accountId, { accountId });
    this.deps.logger.info("balance credited", { accountId, amount });
    return account;
  }
}
