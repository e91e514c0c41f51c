import { parseArgs } from "node:util";
import { ConfigError, loadConfig } from "./env.ts";
import { AppError, ValidationError } from "./errors.ts";
import { createLogger } from "./logger.ts";
import { sendToServer } from "./operator-channel.ts";
import { runCommand, SERVICE_COMMANDS } from "./operator-commands.ts";

const USAGE = `Usage: npm run voxgate -- <command> [options] [--json]
       (npm passes what follows "--" to the CLI; from packages/server: npx tsx src/cli.ts <command> ...)

Commands:
  migrate                                   Apply pending database migrations
  accounts:create --email E --password P    Create an account and its owner
           [--name N] [--account-name A] [--balance 10.00] [--timezone Europe/Paris]
           [--operator]                     ... as a platform operator (console admin section)
  accounts:list                             List accounts with their owners, balances and flags
  accounts:grant-operator --email E         Make the user's account a platform operator
  accounts:revoke-operator --email E        Take the platform operator role away (applies at once)
  api-keys:create --email E [--name N]      Issue an API key for the owner's account (token shown once)
  balance:credit --email E --amount 5.00    Credit an account's balance
           [--description D]
  accounts:set-password --email E --password P
                                            Set a user's password (at least 8 characters) and end
                                            their open sessions

Configuration comes from the same environment variables as the server (DATABASE_URL, VOXGATE_DATA_DIR...).
With the embedded database and a server running on it, commands (but migrate) are run by that server,
through the owner-only socket <data dir>/operator/cli.sock; with no server, the CLI opens the store itself.
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
        operator: { type: "boolean", default: false },
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

async function run(): Promise<void> {
  if (!command || values.help) {
    process.stdout.write(`${USAGE}\n`);
    if (!command && !values.help) process.exitCode = 2;
    return;
  }
  const config = { ...loadConfig(), seedDemo: false };
  const logger = createLogger(values.json ? "silent" : "warn");
  const { json: _json, help: _help, ...options } = values;

  if (command === "migrate") {
    const { openDatabase } = await import("./db/client.ts");
    const { migrate } = await import("./db/migrate.ts");
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
  if (!SERVICE_COMMANDS.includes(command)) {
    throw new AppError("BAD_REQUEST", `Unknown command "${command}".\n\n${USAGE}`);
  }

  // A server holding the embedded store runs the command; otherwise this process opens the store.
  const viaServer = config.databaseUrl ? null : await sendToServer(config.dataDir, command, options);
  if (viaServer) {
    print(viaServer.human, viaServer.machine);
    return;
  }
  // Loaded only now: a command the server runs answers without loading (or compiling) the whole server.
  const { buildApp } = await import("./app.ts");
  const app = await buildApp(config, { logger });
  try {
    const output = await runCommand(app.services, command, options);
    print(output.human, output.machine);
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
