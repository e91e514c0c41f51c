import type { ServiceDeps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import type { Account } from "../../generated/prisma/client.ts";
import type { Viewer } from "../auth/auth.service.ts";
import type { Page, PageRequest } from "../common/pagination.ts";

const pending = () => new AppError("BAD_REQUEST", "Not implemented yet.");

export class PlatformService {
  constructor(private readonly deps: ServiceDeps) {}

  async listAccounts(
    _viewer: Viewer,
    _filters: { search?: string | null },
    _page: PageRequest,
  ): Promise<Page<Account>> {
    void this.deps;
    throw pending();
  }

  async createAccount(
    _viewer: Viewer,
    _input: { email: string; password: string; name?: string | null; operator?: boolean | null },
  ): Promise<Account> {
    throw pending();
  }

  async creditAccount(
    _viewer: Viewer,
    _accountId: number,
    _input: { amount: string; note?: string | null },
  ): Promise<Account> {
    throw pending();
  }

  async suspendAccount(_viewer: Viewer, _accountId: number, _suspended: boolean): Promise<Account> {
    throw pending();
  }
}
