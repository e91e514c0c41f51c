import { randomUUID } from "node:crypto";

/** What a client or proxy may choose as a request id: a short token that cannot forge a log line. */
const SANE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The caller's `X-Request-Id` when it is a sane short token (a proxy's id stays the id); otherwise a new one. */
export function requestIdOf(header: string | null | undefined): string {
  return header && SANE_REQUEST_ID.test(header) ? header : randomUUID();
}
