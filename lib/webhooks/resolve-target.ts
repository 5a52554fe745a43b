import { lookup } from 'node:dns/promises';
import { isIP, type BlockList } from 'node:net';
import { env } from '@/lib/env';
import { isBlockedAddress, parseAllowList } from './blocked-address';

export interface ResolvedTarget {
  url: URL;
  /** The vetted address the request must connect to (no second lookup). */
  address: string;
  family: 4 | 6;
}

export class TargetRefusedError extends Error {}

let cachedAllow: { raw: string; list: BlockList } | undefined;

/** The allow-list from WEBHOOK_ALLOW_PRIVATE_HOSTS (empty by default, refused in production by lib/env). */
export function defaultAllowList(): BlockList {
  const raw = env().WEBHOOK_ALLOW_PRIVATE_HOSTS;
  if (cachedAllow?.raw !== raw) cachedAllow = { raw, list: parseAllowList(raw) };
  return cachedAllow.list;
}

/**
 * Resolves the URL's host once and vets every address it resolves to: one
 * private answer refuses the target, so a mixed DNS answer cannot sneak in.
 */
export async function resolveTarget(rawUrl: string, allow: BlockList = defaultAllowList()): Promise<ResolvedTarget> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new TargetRefusedError('invalid URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TargetRefusedError(`unsupported scheme ${url.protocol}`);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: { address: string; family: number }[];
  if (isIP(host)) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch (err) {
      throw new TargetRefusedError(`DNS lookup failed for ${host}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
    }
  }
  if (addresses.length === 0) throw new TargetRefusedError(`no address for ${host}`);
  const bad = addresses.find((a) => isBlockedAddress(a.address, allow));
  if (bad) throw new TargetRefusedError(`refused: ${host} resolves to a private or reserved address (${bad.address})`);
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family as 4 | 6 };
}
