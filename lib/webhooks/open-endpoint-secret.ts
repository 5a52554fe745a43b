import { openSecret } from '@/lib/crypto/secret-box';

/** Opened endpoint secrets by their sealed form: a busy endpoint's secret is opened once, not per attempt. */
const opened = new Map<string, string>();
/** Bounds the plaintext kept in memory; past it the oldest entry goes. */
const MAX_ENTRIES = 1_000;

/**
 * openSecret for the delivery path. The key is the sealed value itself (key id, IV and ciphertext), so a
 * rotated secret is a new entry and the old one ages out; nothing here outlives the process.
 */
export function openEndpointSecret(sealed: string): string {
  const hit = opened.get(sealed);
  if (hit !== undefined) return hit;
  const secret = openSecret(sealed);
  if (opened.size >= MAX_ENTRIES) opened.delete(opened.keys().next().value!);
  opened.set(sealed, secret);
  return secret;
}
