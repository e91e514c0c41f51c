/**
 * The network address each HTTP request came from, as the socket saw it. The HTTP server records
 * it; resolvers read it for per-IP limits. Behind a reverse proxy this is the proxy's address.
 */
const addresses = new WeakMap<Request, string>();

export function rememberClientAddress(request: Request, address: string | undefined): void {
  if (address) addresses.set(request, address);
}

export function clientAddressOf(request: Request | undefined): string {
  return (request && addresses.get(request)) ?? "unknown";
}
