import { isIP } from 'node:net';
import { ApiError } from '@/lib/api/errors';
import { env } from '@/lib/env';
import type { Mode } from '@/lib/mode';
import { isBlockedAddress } from './blocked-address';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const isLocalHost = (h: string) => LOCAL_HOSTS.has(h) || h.endsWith('.localhost');

/**
 * Checks a receiver URL when it is saved: HTTPS always in live mode; plain
 * http only to localhost, with a test-mode key, outside production. Hosts are
 * re-checked against private ranges at every delivery (DNS can change); here
 * only literal private IPs are refused early.
 */
export function validateEndpointUrl(raw: string, mode: Mode, field = 'url'): string {
  const bad = (message: string) => new ApiError('invalid_url', `${field}: ${message}`, [{ path: field, message }]);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw bad('is not a valid absolute URL');
  }
  if (url.username || url.password) throw bad('must not contain credentials');
  if (url.hash) throw bad('must not contain a fragment');
  const host = url.hostname.toLowerCase();
  const local = isLocalHost(host);
  if (url.protocol === 'http:') {
    if (!local) throw bad('must use https');
    if (mode !== 'test' || env().APP_ENV === 'production')
      throw bad('http://localhost is only accepted for test-mode keys outside production; use https');
  } else if (url.protocol !== 'https:') {
    throw bad('must use https');
  }
  const literal = host.replace(/^\[(.*)\]$/, '$1');
  if (!local && isIP(literal) && isBlockedAddress(literal)) throw bad('points to a private or reserved address');
  if (local && (mode !== 'test' || env().APP_ENV === 'production')) throw bad('must not point to localhost');
  return url.toString();
}
