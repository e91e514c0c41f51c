import { chmodSync, mkdirSync, rmSync } from "node:fs";
import { connect, createServer, type Server, type Socket } from "node:net";
import { join } from "node:path";
import { AppError, type ErrorCode, ValidationError } from "./errors.ts";
import type { Logger } from "./logger.ts";
import {
  type CommandOptions,
  type CommandOutput,
  runCommand,
  SERVICE_COMMANDS,
} from "./operator-commands.ts";
import type { Services } from "./services.ts";

/** Unix socket paths longer than this do not fit `sockaddr_un`. */
const MAX_SOCKET_PATH = 100;
/** A request is one short JSON line; anything longer is not from our CLI. */
const MAX_REQUEST_BYTES = 64 * 1024;
/** A connection that sends nothing useful is dropped after this long. */
const IDLE_TIMEOUT_MS = 10_000;

interface ChannelRequest {
  command: string;
  options: CommandOptions;
}

type ChannelResponse =
  | { output: CommandOutput }
  | { error: { code: ErrorCode | "ERROR"; message: string; fields?: Record<string, string[]> } };

/**
 * Where a server holding an embedded data directory takes operator commands: a Unix socket inside a
 * directory only the server's user may enter (0700; the socket itself 0600), so that reaching it
 * proves the caller could have opened the data files anyway. Null when the path is too long.
 */
export function operatorSocketPath(dataDir: string): string | null {
  const path = join(dataDir, "operator", "cli.sock");
  return path.length <= MAX_SOCKET_PATH ? path : null;
}

/**
 * The server's end: while the server holds the embedded store (which admits one process), the CLI
 * runs its commands here, through the same code and services as requests (events, caches).
 */
export class OperatorChannel {
  private server: Server | null = null;

  constructor(
    private readonly dataDir: string,
    private readonly services: Services,
    private readonly logger: Logger,
  ) {}

  async start(): Promise<void> {
    const path = operatorSocketPath(this.dataDir);
    if (!path) {
      this.logger.warn(
        "data directory path too deep for the operator socket: stop the server to use the CLI",
      );
      return;
    }
    const directory = join(this.dataDir, "operator");
    mkdirSync(directory, { recursive: true, mode: 0o700 });
    chmodSync(directory, 0o700);
    // Left by a crashed server (the data directory's lock proves no live one owns it).
    rmSync(path, { force: true });
    const server = createServer((socket) => this.answer(socket));
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(path, () => {
        server.off("error", reject);
        resolve();
      });
    });
    chmodSync(path, 0o600);
    this.server = server;
  }

  async close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private answer(socket: Socket): void {
    socket.setTimeout(IDLE_TIMEOUT_MS, () => socket.destroy());
    socket.on("error", () => socket.destroy());
    let buffer = "";
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString("utf8");
      if (buffer.length > MAX_REQUEST_BYTES) return socket.destroy();
      const end = buffer.indexOf("\n");
      if (end < 0) return;
      socket.off("data", onData);
      void this.run(buffer.slice(0, end)).then((response) => socket.end(`${JSON.stringify(response)}\n`));
    };
    socket.on("data", onData);
  }

  private async run(line: string): Promise<ChannelResponse> {
    try {
      const request = parseRequest(line);
      this.logger.info("operator command from the CLI", { command: request.command });
      return { output: await runCommand(this.services, request.command, request.options) };
    } catch (error) {
      if (error instanceof ValidationError) {
        return { error: { code: error.code, message: error.message, fields: error.fields } };
      }
      if (error instanceof AppError) return { error: { code: error.code, message: error.message } };
      this.logger.error("operator command failed", { error });
      return { error: { code: "ERROR", message: "The command failed on the server (see its log)." } };
    }
  }
}

function parseRequest(line: string): ChannelRequest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    throw new AppError("BAD_REQUEST", "Not a JSON request.");
  }
  const { command, options } = (parsed ?? {}) as { command?: unknown; options?: unknown };
  if (typeof command !== "string" || !SERVICE_COMMANDS.includes(command)) {
    throw new AppError("BAD_REQUEST", `Unknown command "${String(command)}".`);
  }
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    throw new AppError("BAD_REQUEST", "Options must be an object.");
  }
  for (const value of Object.values(options)) {
    if (typeof value !== "string" && typeof value !== "boolean" && value !== undefined) {
      throw new AppError("BAD_REQUEST", "Options must be strings or booleans.");
    }
  }
  return { command, options: options as CommandOptions };
}

/**
 * The CLI's end: runs `command` in the server that holds `dataDir`, if one answers there. Null when
 * none does (no socket, or one left by a stopped server): the CLI then opens the store itself.
 */
export async function sendToServer(
  dataDir: string,
  command: string,
  options: CommandOptions,
): Promise<CommandOutput | null> {
  const path = operatorSocketPath(dataDir);
  if (!path) return null;
  const socket = connect(path);
  const connected = await new Promise<boolean>((resolve) => {
    socket.once("connect", () => resolve(true));
    socket.once("error", () => resolve(false));
  });
  if (!connected) {
    socket.destroy();
    return null;
  }
  const chunks: Buffer[] = [];
  const answer = await new Promise<string>((resolve, reject) => {
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.once("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    socket.once("error", reject);
    socket.write(`${JSON.stringify({ command, options })}\n`);
  });
  const response = JSON.parse(answer) as ChannelResponse;
  if ("output" in response) return response.output;
  const { code, message, fields } = response.error;
  if (fields) throw new ValidationError(fields);
  if (code === "ERROR") throw new Error(message);
  throw new AppError(code, message);
}
