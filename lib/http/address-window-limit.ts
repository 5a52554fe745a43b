import { addressGroup } from './address-group';

/**
 * A per-process, per-minute request count per client address (IPv6 by its /64): for public reads
 * polled often, where a database round trip per request (the shared limiter of store orders and
 * payment links) would cost what the limit is meant to save. Each process counts on its own, so N
 * instances allow up to N times the limit; it bounds what one process sends to the database.
 * `take` returns null while within `limit`, else the seconds until the window ends.
 */
export function addressWindowLimit(maxAddresses = 100_000) {
  let window = -1;
  const counts = new Map<string, number>();
  return {
    take(address: string, limit: number, now = Date.now()): number | null {
      const w = Math.floor(now / 60_000);
      // A new minute, or too many addresses to keep (a flood of spoofed ones): start counting afresh.
      if (w !== window || counts.size >= maxAddresses) {
        window = w;
        counts.clear();
      }
      const key = addressGroup(address);
      const n = (counts.get(key) ?? 0) + 1;
      counts.set(key, n);
      return n <= limit ? null : Math.max(1, Math.ceil(((w + 1) * 60_000 - now) / 1000));
    },
  };
}
