import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook must never reach: loopback, private, link-local
 * (which holds the cloud metadata address 169.254.169.254), CGNAT, multicast,
 * reserved and documentation ranges, for IPv4 and IPv6.
 */
const BLOCKED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15],
  ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['100::', 64], ['2001:db8::', 32], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8],
] as const) {
  BLOCKED.addSubnet(net, prefix, 'ipv6');
}

/** The IPv4 address embedded in an IPv4-mapped, IPv4-compatible, NAT64 or 6to4 IPv6 address, if any. */
function embeddedIpv4(v6: string): string | null {
  const lower = v6.toLowerCase();
  const dotted = lower.match(/^(?:::ffff:|::|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) return dotted[1]!;
  const hex = lower.match(/^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
  if (hex) {
    const hi = parseInt(hex[1]!, 16);
    const lo = parseInt(hex[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  const sixToFour = lower.match(/^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4}):/);
  if (sixToFour) {
    const hi = parseInt(sixToFour[1]!, 16);
    const lo = parseInt(sixToFour[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return null;
}

/** Parses `127.0.0.0/8,::1` style allow-lists. */
export function parseAllowList(value: string): BlockList {
  const list = new BlockList();
  for (const raw of value.split(',').map((s) => s.trim()).filter(Boolean)) {
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
  if (BLOCKED.check(address, type)) return true;
  if (family === 6) {
    const v4 = embeddedIpv4(address);
    if (v4 !== null) return allow?.check(v4, 'ipv4') ? false : BLOCKED.check(v4, 'ipv4') || v4.startsWith('0.');
  }
  return false;
}
