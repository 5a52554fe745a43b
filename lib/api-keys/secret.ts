import { createHash, randomBytes } from 'node:crypto';
import type { Mode } from '@/lib/mode';

export const KEY_PREFIX: Record<Mode, string> = { live: 'gw_live_', test: 'gw_test_' };

/** Shape of a key as issued: prefix plus base64url of 32 random bytes (43 chars). */
export const KEY_FORMAT = /^gw_(live|test)_[A-Za-z0-9_-]{43}$/;

export function generateKeySecret(mode: Mode): string {
  return KEY_PREFIX[mode] + randomBytes(32).toString('base64url');
}

export function hashKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
