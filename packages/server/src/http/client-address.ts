/**
 * The network address each request came from, for per-IP limits. The node server resolves it once
 * per request (and per WebSocket upgrade) and hands it to every transport with the request. Behind
 * a reverse proxy listed in VOXGATE_TRUSTED_PROXIES it is the address the proxy reported in
 * X-Forwarded-For; otherwise it is the socket's address.
 */
import ipaddr from "ipaddr.js";

/** The proxies whose X-Forwarded-For header is believed: single addresses or CIDR ranges. */
export class TrustedProxies {
  private readonly ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][];

  constructor(entries: readonly string[]) {
    this.ranges = entries.map((entry) => {
      if (entry.includes("/")) return ipaddr.parseCIDR(entry);
      const address = plain(ipaddr.parse(entry));
      return [address, address.kind() === "ipv4" ? 32 : 128];
    });
  }

  includes(address: string): boolean {
    if (this.ranges.length === 0 || !ipaddr.isValid(address)) return false;
    const parsed = plain(ipaddr.parse(address));
    return this.ranges.some(([base, bits]) => base.kind() === parsed.kind() && parsed.match(base, bits));
  }
}

/**
 * Who the client is. A request from a trusted proxy is traced back through X-Forwarded-For from
 * the right, past every trusted hop, to the first address no trusted proxy vouches for; entries
 * left of it were written by the client and are ignored. Anyone else's header is ignored, so a
 * client cannot pick its own rate-limit key.
 */
export function resolveClientAddress(
  socketAddress: string | undefined,
  forwardedFor: string | null,
  trusted: TrustedProxies,
): string | undefined {
  if (!socketAddress || !forwardedFor || !trusted.includes(socketAddress)) return socketAddress;
  let client = socketAddress;
  for (const hop of forwardedFor
    .split(",")
    .map((entry) => entry.trim())
    .reverse()) {
    if (!ipaddr.isValid(hop)) break;
    client = plain(ipaddr.parse(hop)).toString();
    if (!trusted.includes(hop)) break;
  }
  return client;
}

/** An IPv4 address written as IPv6 (::ffff:10.0.0.1) is the IPv4 address it is. */
function plain(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  return address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}
