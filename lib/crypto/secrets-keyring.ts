import { createHash } from 'node:crypto';
import { env } from '@/lib/env';
import { decodeSecretsKey, DEV_SECRETS_ENCRYPTION_KEY } from '@/lib/config/secrets-key';

export interface SecretsKey {
  /** First 8 hex characters of SHA-256 of the key: names the key in sealed values, reveals nothing of it. */
  id: string;
  key: Buffer;
}

export interface SecretsKeyring {
  /** Seals every new value. */
  current: SecretsKey;
  /** Still opens values sealed before a key rotation (SECRETS_ENCRYPTION_KEY_PREVIOUS). */
  previous: SecretsKey | null;
}

export function secretsKeyId(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** A keyring from raw 32-byte keys (tests and the re-encryption use explicit ones). */
export function keyringOf(current: Buffer, previous?: Buffer | null): SecretsKeyring {
  if (current.length !== 32 || (previous && previous.length !== 32)) throw new Error('secrets keys must be 32 bytes');
  return {
    current: { id: secretsKeyId(current), key: current },
    previous: previous && !previous.equals(current) ? { id: secretsKeyId(previous), key: previous } : null,
  };
}

let cached: { from: string; ring: SecretsKeyring } | undefined;

/**
 * The keys of SECRETS_ENCRYPTION_KEY and SECRETS_ENCRYPTION_KEY_PREVIOUS;
 * outside production, the development key when the first is unset (env()
 * refuses production without it).
 */
export function secretsKeyring(): SecretsKeyring {
  const e = env();
  const from = `${e.SECRETS_ENCRYPTION_KEY ?? ''}|${e.SECRETS_ENCRYPTION_KEY_PREVIOUS ?? ''}`;
  if (cached?.from === from) return cached.ring;
  const current = e.SECRETS_ENCRYPTION_KEY ? decodeSecretsKey(e.SECRETS_ENCRYPTION_KEY) : DEV_SECRETS_ENCRYPTION_KEY;
  const previous = e.SECRETS_ENCRYPTION_KEY_PREVIOUS ? decodeSecretsKey(e.SECRETS_ENCRYPTION_KEY_PREVIOUS) : null;
  // env() has validated both; a null here would be a bug, not a configuration problem.
  if (!current) throw new Error('SECRETS_ENCRYPTION_KEY: not a 32-byte key');
  cached = { from, ring: keyringOf(current, previous) };
  return cached.ring;
}
