import { isIPv4, isIPv6 } from 'node:net';

/**
 * The unit a per-address limit counts: an IPv4 address as is, an IPv6 address by its /64 (an ISP
 * hands a customer at least a /64, so its 2^64 addresses are one client; counting them one by one
 * would let a single client pass any per-address limit). IPv4-mapped IPv6 (`::ffff:1.2.3.4`) is its
 * IPv4 address. Anything else (`unknown`, a malformed header) is returned unchanged.
 */
export function addressGroup(address: string): string {
  const a = address
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  if (isIPv4(a)) return a;
  if (!isIPv6(a)) return address;
  const mapped = /^(?:0{0,4}:){0,5}(?::|0{0,4}:)?ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  return `${expand(a).slice(0, 4).join(':')}::/64`;
}

/** The eight hextets of an IPv6 address (a trailing dotted IPv4 counts as two), lower case without leading zeros. */
function expand(a: string): string[] {
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  let s = a.toLowerCase();
  if (v4) {
    const [p, q, r, t] = v4[1]!.split('.').map(Number) as [number, number, number, number];
    s = s.slice(0, -v4[1]!.length) + `${((p << 8) | q).toString(16)}:${((r << 8) | t).toString(16)}`;
  }
  const [head, tail] = s.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const fill = tail === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...fill, ...right].map((h) => parseInt(h || '0', 16).toString(16));
}
