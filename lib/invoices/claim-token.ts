import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { env } from '@/lib/env';

/**
 * The payer's claim token (issue 30 §1): 256 random bits, base64url, carried by the checkout URL
 * the create response gives (`?claim=`). Only its sha256 is stored (invoices.claim_token_hash), so
 * nobody who reads the database, the dashboard or the API can act as the payer. An invoice id is
 * never a credential: it is seen by members, support, read-only keys and webhook consumers.
 */
export function newClaimToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashClaimToken(token) };
}

export const hashClaimToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** Whether `token` is the invoice's claim token: constant time; no hash (invoices from before tokens) never matches. */
export function claimTokenMatches(storedHash: string | null | undefined, token: unknown): boolean {
  if (!storedHash || typeof token !== 'string' || token.length === 0 || token.length > 200) return false;
  const given = Buffer.from(hashClaimToken(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === given.length && timingSafeEqual(stored, given);
}

/** The hosted checkout page, absolute when PUBLIC_BASE_URL is set (else a path on this host). */
export function checkoutPath(invoiceId: string, token?: string): string {
  const base = env().PUBLIC_BASE_URL?.replace(/\/$/, '') ?? '';
  return `${base}/pay/${invoiceId}${token ? `?claim=${token}` : ''}`;
}
