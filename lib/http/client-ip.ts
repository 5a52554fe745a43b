/**
 * The client address for per-address throttling: the last X-Forwarded-For
 * entry. Behind the TLS-terminating balancer production requires, that entry
 * is the peer the balancer saw (balancers append it; whatever a client put in
 * front of it is ignored). Without a proxy, `next start` fills the header with
 * the socket address only when the client sent none, so there a client could
 * choose its own address: per-address limits assume the production topology.
 */
export function clientIp(headers: Headers): string {
  const xff = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return xff[xff.length - 1] || headers.get('x-real-ip') || 'unknown';
}
