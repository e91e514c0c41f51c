import type { Server } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";
import { OVER_CAP_GRACE_MS } from "../limits.ts";
import type { TrustedProxies } from "./client-address.ts";

/** How many of something each address holds at once, against a cap. */
export class PerAddressCount {
  private readonly held = new Map<string, number>();

  constructor(readonly max: number) {}

  /** Counts one more for `address` unless it holds `max` already; false then. */
  take(address: string): boolean {
    const count = this.held.get(address) ?? 0;
    if (count >= this.max) return false;
    this.held.set(address, count + 1);
    return true;
  }

  release(address: string): void {
    const count = (this.held.get(address) ?? 1) - 1;
    if (count > 0) this.held.set(address, count);
    else this.held.delete(address);
  }
}

/** The answer to a request or upgrade over a cap, written straight onto its connection. */
export const TOO_MANY_CONNECTIONS =
  "HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nRetry-After: 1\r\nContent-Length: 0\r\n\r\n";

/**
 * Caps the TCP connections one address holds open on `server`, by the socket's own address: a
 * connection from a trusted proxy is not counted (it carries many clients; the proxy bounds them).
 * A connection over the cap is not dropped at once, so that its client learns why: `refuses` tells
 * the request and upgrade handlers to answer it 429 and close; if it sends nothing it is closed after
 * OVER_CAP_GRACE_MS.
 */
export function capConnectionsPerAddress(
  server: Server,
  max: number,
  trustedProxies: TrustedProxies,
): { refuses(socket: Socket | Duplex): boolean } {
  const counts = new PerAddressCount(max);
  const overCap = new WeakSet<Socket | Duplex>();
  server.on("connection", (socket: Socket) => {
    const address = socket.remoteAddress;
    if (!address || trustedProxies.includes(address)) return;
    if (counts.take(address)) {
      socket.once("close", () => counts.release(address));
      return;
    }
    overCap.add(socket);
    const grace = setTimeout(() => socket.destroy(), OVER_CAP_GRACE_MS).unref();
    socket.once("close", () => clearTimeout(grace));
  });
  return { refuses: (socket) => overCap.has(socket) };
}
