import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { finished } from "node:stream/promises";
import { parseArgs } from "node:util";
import { ConfigError, loadConfig, testClientEnv } from "./env.ts";
import { AppError, ValidationError } from "./errors.ts";
import { createLogger } from "./logger.ts";
import { sendToServer } from "./operator-channel.ts";
import {
  type CommandOptions,
  type CommandOutput,
  runCommand,
  SERVICE_COMMANDS,
} from "./operator-commands.ts";

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
  test --suite ID [--junit FILE]            Run an agent test suite on a server (VOXGATE_URL, or --url,
           [--url U] [--concurrency N]      and VOXGATE_API_KEY); exits 1 unless every scenario passed
  customers:erase --account ID --phone P    Erase everything tied to a customer (irreversible);
           (or --email E, --customer-id C)  national numbers read in [--country US]; a tombstone
           [--wait]                         stays. --wait runs it now and reports what was erased
  accounts:set-password --email E --password P
                                            Set a user's password (at least 8 characters) and end
                                            their open sessions
  audit:export --account ID [--out FILE]    Write the account's audit log as JSON lines, oldest
                                            first, to FILE (else stdout)

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
        suite: { type: "string" },
        junit: { type: "string" },
        url: { type: "string" },
        concurrency: { type: "string" },
        account: { type: "string" },
        phone: { type: "string" },
        "customer-id": { type: "string" },
        country: { type: "string" },
        wait: { type: "boolean", default: false },
        out: { type: "string" },
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
  if (command === "test") {
    await testCommand();
    return;
  }
  const config = { ...loadConfig(), seedDemo: false };
  const logger = createLogger(values.json ? "silent" : "warn");
  const {
    json: _json,
    help: _help,
    suite: _suite,
    junit: _junit,
    url: _url,
    concurrency: _c,
    out: _out,
    ...options
  } = values;

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
  if (command !== "audit:export" && !SERVICE_COMMANDS.includes(command)) {
    throw new AppError("BAD_REQUEST", `Unknown command "${command}".\n\n${USAGE}`);
  }

  let app: Awaited<ReturnType<typeof import("./app.ts")["buildApp"]>> | null = null;
  // A server holding the embedded store runs the command; otherwise this process opens the store.
  const execute = async (name: string, commandOptions: CommandOptions): Promise<CommandOutput> => {
    if (!app) {
      const viaServer = config.databaseUrl ? null : await sendToServer(config.dataDir, name, commandOptions);
      if (viaServer) return viaServer;
      // Loaded only now: a command the server runs answers without loading (or compiling) the whole server.
      const { buildApp } = await import("./app.ts");
      app = await buildApp(config, { logger });
    }
    return runCommand(app.services, name, commandOptions);
  };
  try {
    if (command === "audit:export") {
      await exportAuditLog(execute, options);
      return;
    }
    const output = await execute(command, options);
    print(output.human, output.machine);
  } finally {
    await (app as { close(): Promise<void> } | null)?.close();
  }
}

/**
 * `audit:export`: the account's audit log as JSON lines, oldest first, read in bounded batches
 * (`audit:batch`) and written where the CLI runs, whoever holds the store.
 */
async function exportAuditLog(
  execute: (name: string, options: CommandOptions) => Promise<CommandOutput>,
  options: CommandOptions,
): Promise<void> {
  const file = values.out ? createWriteStream(values.out) : null;
  const out = file ?? process.stdout;
  let count = 0;
  let after = "0";
  for (;;) {
    const { machine } = await execute("audit:batch", { account: options.account, after });
    const batch = machine as { entries: unknown[]; last: number | null };
    for (const entry of batch.entries) {
      if (!out.write(`${JSON.stringify(entry)}\n`)) await once(out, "drain");
    }
    count += batch.entries.length;
    if (batch.last === null) break;
    after = String(batch.last);
  }
  if (file) {
    file.end();
    await finished(file);
    print(`Wrote ${count} audit log entries to ${values.out}.`, { entries: count, file: values.out });
  }
}

/**
 * `test`: a client of a running server (an owner's CI), through its GraphQL API with an API key.
 * Loaded on its own: it needs nothing of the server's code or configuration.
 */
async function testCommand(): Promise<void> {
  const { junitXml, runSuite } = await import("./modules/agent-tests/test-client.ts");
  const environment = testClientEnv();
  const url = values.url ?? environment.url;
  const suiteId = Number(values.suite);
  const concurrency = values.concurrency === undefined ? undefined : Number(values.concurrency);
  const problems: Record<string, string[]> = {};
  if (!Number.isInteger(suiteId) || suiteId <= 0) problems.suite = ["--suite takes the suite's id."];
  if (!url) problems.url = ["Set VOXGATE_URL or --url to the server's base URL."];
  if (!environment.apiKey) problems.apiKey = ["Set VOXGATE_API_KEY to an API key of the suite's account."];
  if (concurrency !== undefined && !Number.isInteger(concurrency))
    problems.concurrency = ["--concurrency takes an integer, 1 to 4."];
  if (Object.keys(problems).length > 0) throw new ValidationError(problems);
  const run = await runSuite({
    url: url!,
    apiKey: environment.apiKey!,
    suiteId,
    ...(concurrency !== undefined ? { concurrency } : {}),
    onProgress: (progress) => {
      if (!values.json) process.stderr.write(`${progress.status}: ${progress.done}/${progress.total}\n`);
    },
  });
  if (values.junit) {
    const { writeFile } = await import("node:fs/promises");
    await writeFile(values.junit, junitXml(run));
  }
  const failing = run.results.filter((result) => result.status !== "passed");
  print(
    [
      `Run ${run.id}: ${run.status} (${run.passed}/${run.total} passed, ${run.failed} failed, ${run.errored} errors).`,
      ...failing.map(
        (result) => `  ${result.status}: ${result.scenarioName}${result.error ? ` (${result.error})` : ""}`,
      ),
    ].join("\n"),
    {
      run: {
        id: run.id,
        status: run.status,
        total: run.total,
        passed: run.passed,
        failed: run.failed,
        errored: run.errored,
      },
    },
  );
  if (run.status !== "passed") process.exitCode = 1;
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
