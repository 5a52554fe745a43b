import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook must never reach: loopback, private, link-local
 * (which holds the cloud metadata address 169.254.169.254), CGNAT, multicast,
 * reserved and documentation ranges, for IPv4 and IPv6.
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv4');
}
// IPv6 ranges that embed or tunnel to an IPv4 address are refused whole, in every spelling: IPv4-compatible
// (::/96, which also holds :: and ::1), IPv4-translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96 and the local-use
// 64:ff9b:1::/48), 6to4 (2002::/16) and Teredo (2001::/32). A translator or relay may forward them to any IPv4
// address, private ones included, and no receiver needs them. IPv4-mapped (::ffff:0:0/96) is how a dual-stack
// socket shows plain IPv4, so those are judged by the IPv4 rules instead (BlockList applies its IPv4 subnets to them).
for (const [net, prefix] of [
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 32],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv6');
}

/** Parses `127.0.0.0/8,::1` style allow-lists. */
export function parseAllowList(value: string): BlockList {
  const list = new BlockList();
  for (const raw of value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [addr, prefix] = raw.split('/');
    const family = isIP(addr!);
    if (!family) throw new Error(`WEBHOOK_ALLOW_PRIVATE_HOSTS: "${raw}" is not an IP address or CIDR`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(addr!, type);
    else list.addSubnet(addr!, Number(prefix), type);
  }
  return list;
}

/** True when a webhook must not be sent to `address` (unless the allow-list lets it through). */
export function isBlockedAddress(address: string, allow?: BlockList): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (allow?.check(address, type)) return false;
  return BLOCKED.check(address, type);
}
