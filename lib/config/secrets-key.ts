import { createHash } from 'node:crypto';

/**
 * The key used outside production when SECRETS_ENCRYPTION_KEY is unset. It is
 * derived from a constant in this public source, so anyone can decrypt with it:
 * production refuses it (lib/env.ts).
 */
export const DEV_SECRETS_ENCRYPTION_KEY: Buffer = createHash('sha256')
  .update('usdt-gateway development-only secrets encryption key; never use in production')
  .digest();

/**
 * A 32-byte key written as 64 hex characters or as base64 / base64url (43
 * characters, or 44 with the `=` padding: `openssl rand -base64 32`); null when
 * it is neither.
 */
export function decodeSecretsKey(value: string): Buffer | null {
  const v = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(v)) return Buffer.from(v, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(v)) {
    const key = Buffer.from(v, 'base64');
    return key.length === 32 ? key : null;
  }
  return null;
}
