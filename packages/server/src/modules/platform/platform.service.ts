import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { AppError, NotFoundError } from "../../errors.ts";
import type { Account, Prisma } from "../../generated/prisma/client.ts";
import { parseInput } from "../../validation.ts";
import type { AccountsService } from "../accounts/index.ts";
import type { Viewer } from "../auth/auth.service.ts";
import type { CredentialCache } from "../auth/index.ts";
import { requireOperator } from "../auth/operator-role.ts";
import type { BillingService } from "../billing/index.ts";
import { type Page, type PageRequest, paginate } from "../common/pagination.ts";

const SearchInput = z.object({
  search: z.string().trim().max(255, "The search field must not be greater than 255 characters.").nullish(),
});

const AccountIdInput = z.object({
  accountId: z.number({ error: "The account id field must be an integer." }).int().positive(),
});

const NoteInput = z.object({
  note: z.string().trim().max(255, "The note field must not be greater than 255 characters.").nullish(),
});

/**
 * Platform administration: operators (accounts with `isOperator`) list, create, credit and suspend
 * every account. Every method checks the caller's role first; others get FORBIDDEN. The writer of
 * `accounts.suspendedAt`.
 */
export class PlatformService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      accounts: AccountsService;
      billing: BillingService;
      credentials: CredentialCache;
    },
  ) {}

  private get prisma() {
    return this.deps.db.prisma;
  }

  private requireOperator(viewer: Viewer): Promise<void> {
    return requireOperator(this.prisma, viewer, "administer accounts");
  }

  async listAccounts(
    viewer: Viewer,
    filters: { search?: string | null },
    page: PageRequest,
  ): Promise<Page<Account>> {
    await this.requireOperator(viewer);
    const { search } = parseInput(SearchInput, filters);
    const where: Prisma.AccountWhereInput = search
      ? {
          OR: [
            { name: { contains: search, mode: "insensitive" } },
            { users: { some: { email: { contains: search, mode: "insensitive" } } } },
          ],
        }
      : {};
    return paginate(page, 25, {
      count: () => this.prisma.account.count({ where }),
      items: (skip, take) => this.prisma.account.findMany({ where, orderBy: { id: "asc" }, skip, take }),
    });
  }

  async createAccount(
    viewer: Viewer,
    input: { email: string; password: string; name?: string | null; operator?: boolean | null },
  ): Promise<Account> {
    await this.requireOperator(viewer);
    const { account } = await this.parts.accounts.create({
      email: input.email,
      password: input.password,
      ...(input.name ? { name: input.name } : {}),
      operator: input.operator ?? false,
    });
    this.deps.logger.info("account created by an operator", {
      accountId: account.id,
      operatorAccountId: viewer.accountId,
    });
    return account;
  }

  async creditAccount(
    viewer: Viewer,
    accountId: number,
    input: { amount: string; note?: string | null },
  ): Promise<Account> {
    await this.requireOperator(viewer);
    parseInput(AccountIdInput, { accountId });
    const { note } = parseInput(NoteInput, { note: input.note });
    const account = await this.parts.billing.credit(accountId, {
      amount: input.amount,
      description: note || `Credit by platform operator (account ${viewer.accountId})`,
    });
    this.deps.logger.info("account credited by an operator", {
      accountId,
      operatorAccountId: viewer.accountId,
      amount: input.amount,
    });
    return account;
  }

  /**
   * Suspends an account or lifts its suspension. Its credentials are refused from this moment: the
   * credential caches of every instance forget the account, and its live streams end.
   */
  async suspendAccount(viewer: Viewer, accountId: number, suspended: boolean): Promise<Account> {
    await this.requireOperator(viewer);
    parseInput(AccountIdInput, { accountId });
    if (suspended && accountId === viewer.accountId) {
      throw new AppError("BAD_REQUEST", "An operator cannot suspend their own account.");
    }
    const updated = await this.prisma.account.updateManyAndReturn({
      where: { id: accountId },
      data: { suspendedAt: suspended ? new Date() : null },
    });
    const account = updated[0];
    if (!account) throw new NotFoundError("Account");
    if (suspended) this.parts.credentials.revoked({ kind: "account", id: accountId });
    this.deps.logger.info(suspended ? "account suspended" : "account suspension lifted", {
      accountId,
      operatorAccountId: viewer.accountId,
    });
    return account;
  }
}
