import { createHash, randomBytes } from 'node:crypto';
import { env } from '@/lib/env';

/** A claim link's secret: 256 random bits, base64url (43 characters). */
export const newClaimToken = () => randomBytes(32).toString('base64url');

/** What is stored and looked up: the secret itself never is. */
export const hashClaimToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Only well-formed secrets reach the database. */
export const isClaimToken = (token: string) => /^[A-Za-z0-9_-]{43}$/.test(token);

/** The payer's page; absolute when the app knows its public address. */
export function claimUrl(token: string) {
  const base = env().PUBLIC_BASE_URL?.replace(/\/$/, '') ?? '';
  return `${base}/refund-claim/${token}`;
}
