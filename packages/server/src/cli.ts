import { parseArgs } from "node:util";
import { buildApp } from "./app.ts";
import { openDatabase } from "./db/client.ts";
import { migrate } from "./db/migrate.ts";
import { ConfigError, loadConfig } from "./env.ts";
import { AppError, ValidationError } from "./errors.ts";
import { createLogger } from "./logger.ts";

const USAGE = `Usage: pnpm voxgate <command> [options] [--json]

Commands:
  migrate                                   Apply pending database migrations
  accounts:create --email E --password P    Create an account and its owner
           [--name N] [--account-name A] [--balance 10.00] [--timezone Europe/Paris]
  accounts:list                             List accounts with their owners and balances
  api-keys:create --email E [--name N]      Issue an API key for the owner's account (token shown once)
  balance:credit --email E --amount 5.00    Credit an account's balance
           [--description D]

Configuration comes from the same environment variables as the server (DATABASE_URL, VOXGATE_DATA_DIR...).
With the embedded database, stop the server first: one process at a time may open it.
--json prints one JSON document on stdout, for scripts.`;

function parseCommandLine() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        email: { type: "string" },
        password: { type: "string" },
        name: { type: "string" },
        "account-name": { type: "string" },
        balance: { type: "string" },
        timezone: { type: "string" },
        amount: { type: "string" },
        description: { type: "string" },
        json: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    });
  } catch (error) {
    // A negative number after an option reads as an option: say how to pass it.
    process.stderr.write(
      `${(error as Error).message}\nWrite values that start with "-" as --option=value.\n\n${USAGE}\n`,
    );
    process.exit(2);
  }
}

const { positionals, values } = parseCommandLine();

const command = positionals[0];

function print(human: string, machine: unknown): void {
  process.stdout.write(values.json ? `${JSON.stringify(machine, null, 2)}\n` : `${human}\n`);
}

function required(name: "email" | "password" | "amount"): string {
  const value = values[name];
  if (!value) throw new ValidationError({ [name]: [`--${name} is required.`] });
  return value;
}

async function run(): Promise<void> {
  if (!command || values.help) {
    process.stdout.write(`${USAGE}\n`);
    if (!command && !values.help) process.exitCode = 2;
    return;
  }
  const config = { ...loadConfig(), seedDemo: false };
  const logger = createLogger(values.json ? "silent" : "warn");

  if (command === "migrate") {
    const db = await openDatabase(
      config.databaseUrl
        ? { kind: "postgres", url: config.databaseUrl }
        : { kind: "pglite", dataDir: config.dataDir },
    );
    try {
      const applied = await migrate(db);
      print(applied.length ? `Applied: ${applied.join(", ")}` : "Database is up to date.", { applied });
    } finally {
      await db.close();
    }
    return;
  }

  const app = await buildApp(config, { logger });
  try {
    const { accounts, apiKeys, billing } = app.services;
    switch (command) {
      case "accounts:create": {
        const { account, user } = await accounts.create({
          email: required("email"),
          password: required("password"),
          name: values.name,
          accountName: values["account-name"],
          balance: values.balance ?? "0",
          timezone: values.timezone ?? "UTC",
        });
        print(`Created account ${account.id} (${account.name}) with owner ${user.email}.`, {
          account: {
            id: account.id,
            name: account.name,
            balance: account.balance.toFixed(4),
            timezone: account.timezone,
          },
          user: { id: user.id, email: user.email, name: user.name },
        });
        return;
      }
      case "accounts:list": {
        const list = await accounts.list();
        const rows = list.map((account) => ({
          id: account.id,
          name: account.name,
          balance: account.balance.toFixed(4),
          timezone: account.timezone,
          owners: account.users.map((user) => user.email),
        }));
        print(
          rows.length
            ? rows
                .map(
                  (row) => `${row.id}\t${row.name}\t${row.balance}\t${row.timezone}\t${row.owners.join(",")}`,
                )
                .join("\n")
            : "No accounts.",
          { accounts: rows },
        );
        return;
      }
      case "api-keys:create": {
        const user = await accounts.findOwnerByEmail(required("email"));
        const { apiKey, token } = await apiKeys.create(
          { accountId: user.accountId, userId: user.id },
          { name: values.name ?? "CLI key" },
        );
        print(
          `API key ${apiKey.id} (${apiKey.name}) for account ${user.accountId}. Shown only once:\n${token}`,
          {
            apiKey: { id: apiKey.id, name: apiKey.name, accountId: user.accountId },
            token,
          },
        );
        return;
      }
      case "balance:credit": {
        const user = await accounts.findOwnerByEmail(required("email"));
        const account = await billing.credit(user.accountId, {
          amount: required("amount"),
          ...(values.description ? { description: values.description } : {}),
        });
        print(`Balance of account ${account.id} is now ${account.balance.toFixed(4)}.`, {
          account: { id: account.id, balance: account.balance.toFixed(4) },
        });
        return;
      }
      default:
        throw new AppError("BAD_REQUEST", `Unknown command "${command}".\n\n${USAGE}`);
    }
  } finally {
    await app.close();
  }
}

run().catch((error: unknown) => {
  let message = error instanceof Error ? error.message : String(error);
  if (error instanceof ValidationError) {
    message = Object.entries(error.fields)
      .map(([field, messages]) => `${field}: ${messages.join(" ")}`)
      .join("\n");
  }
  if (values.json) {
    const code = error instanceof AppError ? error.code : error instanceof ConfigError ? "CONFIG" : "ERROR";
    process.stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
  } else {
    process.stderr.write(`${message}\n`);
  }
  process.exitCode = 1;
});
