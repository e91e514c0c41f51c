import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { NotFoundError, ValidationError } from "../../errors.ts";
import { emailAddress, ianaTimezone, moneyAmount, parseInput, requiredString } from "../../validation.ts";
import { hashPassword } from "../auth/password.ts";
import type { BillingService } from "../billing/index.ts";

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
        data: { accountId: created.id, email: data.email, name: displayName, passwordHash },
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

  /** The email of the account's first user. */
  async ownerEmail(accountId: number): Promise<string | null> {
    const owner = await this.deps.db.prisma.user.findFirst({
      where: { accountId },
      orderBy: { id: "asc" },
      select: { email: true },
    });
    return owner?.email ?? null;
  }

  async findOwnerByEmail(email: string) {
    const user = await this.deps.db.prisma.user.findUnique({ where: { email: email.trim().toLowerCase() } });
    if (!user) throw new NotFoundError("User");
    return user;
  }
}
