import { AsyncLocalStorage } from "node:async_hooks";
import { pino } from "pino";
import type { Config } from "./env.ts";

/** What services log through: a message and structured fields. */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** Where log lines go: one JSON document per `write` (tests capture them). */
export interface LogDestination {
  write(line: string): void;
}

export interface LoggerOptions {
  /** JSON lines for log collectors, or one readable line per event for people; default readable. */
  format?: Config["logFormat"];
  /** Default: standard error, written synchronously so nothing is lost when the process exits. */
  destination?: LogDestination;
}

/**
 * The work one request started: every line logged inside it, including jobs it enqueued when they
 * run, carries its request id, without passing the id through every service call.
 */
const logScope = new AsyncLocalStorage<{ requestId: string; stages?: Record<string, number> }>();

export function withRequestId<T>(requestId: string, work: () => T): T {
  return logScope.run({ requestId }, work);
}

export function currentRequestId(): string | undefined {
  return logScope.getStore()?.requestId;
}

/**
 * Runs one stage of the current request's work (a database statement, a call to a model) and adds its
 * wall time, in milliseconds, to the request's `stages`, which its access-log line carries: an
 * operator sees where a slow request waited without a profiler. A stage run twice adds up; outside a
 * request it only runs `work`.
 */
export async function timed<T>(stage: string, work: () => Promise<T>): Promise<T> {
  const scope = logScope.getStore();
  if (!scope) return work();
  const started = performance.now();
  try {
    return await work();
  } finally {
    scope.stages ??= {};
    scope.stages[stage] = (scope.stages[stage] ?? 0) + (performance.now() - started);
  }
}

/** The stages `timed` recorded in the current request, rounded to hundredths of a millisecond. */
export function requestStages(): Record<string, number> | undefined {
  const stages = logScope.getStore()?.stages;
  if (!stages) return undefined;
  return Object.fromEntries(Object.entries(stages).map(([stage, ms]) => [stage, Math.round(ms * 100) / 100]));
}

/**
 * Field names whose values are credentials, removed wherever they appear in the first three levels
 * of a line's fields (e.g. `headers.authorization`, `input.password`).
 */
const SECRET_KEYS = [
  "authorization",
  "cookie",
  "password",
  "currentPassword",
  "newPassword",
  "token",
  "apiKey",
  "api_key",
  "secret",
];
const secretPaths = SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]);

export function createLogger(level: Config["logLevel"], options: LoggerOptions = {}): Logger {
  const format = options.format ?? "pretty";
  const destination = options.destination ?? pino.destination({ dest: 2, sync: true });
  const base = pino(
    {
      level,
      // pid and hostname are the collector's to add; a readable line has no room for them.
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { error: pino.stdSerializers.err, err: pino.stdSerializers.err },
      redact: { paths: secretPaths, censor: "[redacted]" },
      mixin: () => {
        const requestId = currentRequestId();
        return requestId ? { requestId } : {};
      },
    },
    format === "json" ? destination : readable(destination),
  );
  const write =
    (at: "debug" | "info" | "warn" | "error") => (message: string, fields?: Record<string, unknown>) =>
      base[at](fields ?? {}, message);
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}

/** The development format: time, level, message, then the remaining fields as JSON. */
function readable(out: LogDestination): LogDestination {
  return {
    write(line) {
      const { time, level, msg, ...fields } = JSON.parse(line) as Record<string, unknown>;
      const suffix = Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields)}` : "";
      out.write(`${String(time)} ${String(level).toUpperCase().padEnd(5)} ${String(msg)}${suffix}\n`);
    },
  };
}
