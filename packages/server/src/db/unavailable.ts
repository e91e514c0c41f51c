/**
 * Whether an error means the database cannot be reached right now (it is down, restarting or
 * failing over), as opposed to a query that is wrong or data that is refused. The error may come
 * from node-postgres itself, from Prisma's pg adapter (wrapped in a Prisma error whose `meta` keeps
 * the adapter's), or from the embedded database's process dying; causes are followed.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const current = queue.shift();
    if (!current || typeof current !== "object" || seen.has(current)) continue;
    seen.add(current);
    if (looksUnavailable(current as ErrorLike)) return true;
    const { cause, originalError, meta, errors } = current as ErrorLike;
    queue.push(cause, originalError, meta?.driverAdapterError);
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return false;
}

interface ErrorLike {
  name?: unknown;
  code?: unknown;
  errorCode?: unknown;
  message?: unknown;
  kind?: unknown;
  originalCode?: unknown;
  cause?: unknown;
  originalError?: unknown;
  meta?: { driverAdapterError?: unknown };
  errors?: unknown;
}

/** Prisma's codes for a server it cannot reach, a timed-out socket and a closed connection. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017"]);
/** What Prisma's pg adapter calls the same (its `DriverAdapterError` cause). */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout"]);
/** Socket failures on the way to the server. */
const SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);
/**
 * node-postgres words these without a code: the server closed the socket (a restart), a pooled
 * client that already failed, a connection attempt that timed out.
 */
const PG_MESSAGES = [
  /Connection terminated (unexpectedly|due to connection timeout)/,
  /Client has encountered a connection error and is not queryable/,
  /timeout exceeded when trying to connect/,
  /Client was closed and is not queryable/,
];

function looksUnavailable(error: ErrorLike): boolean {
  if (error.name === "DatabaseStoppedError") return true;
  for (const code of [error.code, error.errorCode, error.originalCode]) {
    if (typeof code !== "string") continue;
    if (PRISMA_CODES.has(code) || SOCKET_CODES.has(code)) return true;
    // SQLSTATE class 08 (connection exception); 57P01-57P03: the server is shutting down, crashed or starting.
    if (/^08[0-9A-Z]{3}$/.test(code) || /^57P0[123]$/.test(code)) return true;
  }
  if (typeof error.kind === "string" && ADAPTER_KINDS.has(error.kind)) return true;
  const message = error.message;
  return typeof message === "string" && PG_MESSAGES.some((pattern) => pattern.test(message));
}
