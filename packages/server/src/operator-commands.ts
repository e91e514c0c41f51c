import { AppError, NotFoundError, ValidationError } from "./errors.ts";
import type { Services } from "./services.ts";

/** The options of an operator command, as `parseArgs` reads them from the command line. */
export interface CommandOptions {
  email?: string | undefined;
  password?: string | undefined;
  name?: string | undefined;
  "account-name"?: string | undefined;
  balance?: string | undefined;
  timezone?: string | undefined;
  amount?: string | undefined;
  description?: string | undefined;
  operator?: boolean | undefined;
  account?: string | undefined;
  phone?: string | undefined;
  "customer-id"?: string | undefined;
  country?: string | undefined;
  wait?: boolean | undefined;
  after?: string | undefined;
}

/** What a command printed: a line for people, a document for `--json`. */
export interface CommandOutput {
  human: string;
  machine: unknown;
}

/** Commands that need the services (every one but `migrate`), run by the CLI or, for it, by a running server. */
export const SERVICE_COMMANDS = [
  "accounts:create",
  "accounts:list",
  "accounts:grant-operator",
  "accounts:revoke-operator",
  "api-keys:create",
  "balance:credit",
  "customers:erase",
  "accounts:set-password",
  "audit:batch",
];

function required(options: CommandOptions, name: "email" | "password" | "amount"): string {
  const value = options[name];
  if (!value) throw new ValidationError({ [name]: [`--${name} is required.`] });
  return value;
}

/** `--account`: the id of an account that exists. */
async function accountOption(accounts: Services["accounts"], options: CommandOptions): Promise<number> {
  const accountId = Number(options.account);
  if (!options.account || !Number.isInteger(accountId) || accountId <= 0) {
    throw new ValidationError({ account: ["--account is required: the account's id (accounts:list)."] });
  }
  await accounts.get(accountId).catch(() => {
    throw new NotFoundError("Account");
  });
  return accountId;
}

export async function runCommand(
  services: Pick<Services, "accounts" | "apiKeys" | "billing" | "customerData" | "auth" | "auditLog">,
  command: string,
  options: CommandOptions,
): Promise<CommandOutput> {
  const { accounts, apiKeys, billing, customerData, auth, auditLog } = services;
  switch (command) {
    case "accounts:create": {
      const { account, user } = await accounts.create({
        email: required(options, "email"),
        password: required(options, "password"),
        name: options.name,
        accountName: options["account-name"],
        balance: options.balance ?? "0",
        timezone: options.timezone ?? "UTC",
        operator: options.operator ?? false,
      });
      return {
        human: `Created ${account.isOperator ? "platform operator " : ""}account ${account.id} (${account.name}) with owner ${user.email}.`,
        machine: {
          account: {
            id: account.id,
            name: account.name,
            balance: account.balance.toFixed(4),
            timezone: account.timezone,
            isOperator: account.isOperator,
          },
          user: { id: user.id, email: user.email, name: user.name },
        },
      };
    }
    case "accounts:list": {
      const list = await accounts.list();
      const rows = list.map((account) => ({
        id: account.id,
        name: account.name,
        balance: account.balance.toFixed(4),
        timezone: account.timezone,
        isOperator: account.isOperator,
        suspended: account.suspendedAt !== null,
        owners: account.users.map((user) => user.email),
      }));
      const flags = (row: (typeof rows)[number]) =>
        [row.isOperator ? "operator" : "", row.suspended ? "suspended" : ""].filter(Boolean).join(",");
      return {
        human: rows.length
          ? rows
              .map(
                (row) =>
                  `${row.id}\t${row.name}\t${row.balance}\t${row.timezone}\t${row.owners.join(",")}\t${flags(row)}`,
              )
              .join("\n")
          : "No accounts.",
        machine: { accounts: rows },
      };
    }
    case "accounts:grant-operator":
    case "accounts:revoke-operator": {
      const user = await accounts.findOwnerByEmail(required(options, "email"));
      const account = await accounts.setOperator(user.accountId, command === "accounts:grant-operator");
      return {
        human: `Account ${account.id} (${account.name}) ${account.isOperator ? "is now" : "is no longer"} a platform operator.`,
        machine: { account: { id: account.id, name: account.name, isOperator: account.isOperator } },
      };
    }
    case "api-keys:create": {
      const user = await accounts.findOwnerByEmail(required(options, "email"));
      const { apiKey, token } = await apiKeys.create(
        { accountId: user.accountId, userId: user.id },
        { name: options.name ?? "CLI key" },
      );
      return {
        human: `API key ${apiKey.id} (${apiKey.name}) for account ${user.accountId}. Shown only once:\n${token}`,
        machine: { apiKey: { id: apiKey.id, name: apiKey.name, accountId: user.accountId }, token },
      };
    }
    case "balance:credit": {
      const user = await accounts.findOwnerByEmail(required(options, "email"));
      const account = await billing.credit(user.accountId, {
        amount: required(options, "amount"),
        ...(options.description ? { description: options.description } : {}),
      });
      return {
        human: `Balance of account ${account.id} is now ${account.balance.toFixed(4)}.`,
        machine: { account: { id: account.id, balance: account.balance.toFixed(4) } },
      };
    }
    case "customers:erase": {
      const accountId = await accountOption(accounts, options);
      const requested = await customerData.requestErasure(
        { accountId, requestedBy: "cli" },
        {
          phoneNumber: options.phone,
          email: options.email,
          customerId: options["customer-id"],
          country: options.country,
        },
      );
      const job = options.wait ? await customerData.runNow(accountId, requested.id) : requested;
      const counts = Object.entries(job.counts as Record<string, number>)
        .map(([kind, count]) => `${kind} ${count}`)
        .join(", ");
      return {
        human:
          job.state === "done"
            ? `Erased (job ${job.id}): ${counts || "nothing was found"}. The tombstone keeps the number from being added or called again.`
            : `Erasure job ${job.id} is ${job.state}${job.error ? `: ${job.error}` : ""}; a running server carries it out.`,
        machine: {
          job: {
            id: job.id,
            state: job.state,
            identifierKind: job.identifierKind,
            identifierHash: job.identifierHash,
            counts: job.counts,
            error: job.error,
          },
        },
      };
    }
    case "accounts:set-password": {
      const user = await accounts.setPassword(required(options, "email"), required(options, "password"));
      const sessions = await auth.revokeSessionsOf(user.id);
      return {
        human: `Password of ${user.email} changed; ${sessions === 1 ? "1 open session was" : `${sessions} open sessions were`} ended.`,
        machine: { user: { id: user.id, email: user.email }, sessionsEnded: sessions },
      };
    }
    // One bounded batch of `audit:export` (cli.ts), which writes the batches out where the CLI runs.
    case "audit:batch": {
      const accountId = await accountOption(accounts, options);
      const after = Number(options.after ?? "0");
      if (!Number.isSafeInteger(after) || after < 0) {
        throw new ValidationError({ after: ["--after takes the id of the last entry already read."] });
      }
      const batch = await auditLog.exportBatch(accountId, after);
      return {
        human: `${batch.entries.length} entries.`,
        machine: {
          entries: batch.entries.map((entry) => ({ ...entry, at: entry.at.toISOString() })),
          last: batch.last,
        },
      };
    }
    default:
      throw new AppError("BAD_REQUEST", `Unknown command "${command}".`);
  }
}
