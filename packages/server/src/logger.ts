import type { Config } from "./env.ts";

const levels = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof levels, "silent">;

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** One line per event on stderr: a timestamp, the level, the message and its fields as JSON. */
export function createLogger(level: Config["logLevel"]): Logger {
  const threshold = levels[level];
  const write = (at: Level) => (message: string, fields?: Record<string, unknown>) => {
    if (levels[at] < threshold) return;
    const suffix =
      fields && Object.keys(fields).length > 0 ? ` ${JSON.stringify(fields, errorReplacer)}` : "";
    process.stderr.write(`${new Date().toISOString()} ${at.toUpperCase().padEnd(5)} ${message}${suffix}\n`);
  };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}

function errorReplacer(_key: string, value: unknown) {
  return value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
}
