import { env } from '@/lib/env';

/**
 * The client address for per-IP throttling. `next start` appends the socket
 * address to X-Forwarded-For, so without a trusted proxy the last entry is the
 * peer (a client cannot forge it); behind TRUST_PROXY the first entry is.
 */
export function clientIp(headers: Headers): string {
  const xff = (headers.get('x-forwarded-for') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const ip = env().TRUST_PROXY ? xff[0] : xff[xff.length - 1];
  return ip || headers.get('x-real-ip') || 'unknown';
}
