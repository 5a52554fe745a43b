import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { secretsKeyring, type SecretsKeyring } from './secrets-keyring';

/**
 * Secrets the gateway must read back (webhook signing secrets, postback
 * secrets, TOTP secrets) are stored sealed with AES-256-GCM:
 *
 *   enc:v1:<keyId>:<base64url 12-byte IV>:<base64url ciphertext + 16-byte tag>
 *
 * A fresh random IV per value; the key id picks the key (current or previous)
 * when opening. Values without the `enc:` prefix are legacy plaintext rows and
 * are returned as they are until `npm run gateway -- secrets:reencrypt` seals
 * them. Error messages never contain the value, sealed or not.
 */
const PREFIX = 'enc:';
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

export class SecretBoxError extends Error {
  override name = 'SecretBoxError';
}

/** Seals a secret with the current key. */
export function sealSecret(plaintext: string, ring: SecretsKeyring = secretsKeyring()): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', ring.current.key, iv);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  return `${PREFIX}${VERSION}:${ring.current.id}:${iv.toString('base64url')}:${body.toString('base64url')}`;
}

/** The secret of a stored value: opens a sealed one (throws if it was altered or its key is unknown); returns legacy plaintext as is. */
export function openSecret(stored: string, ring: SecretsKeyring = secretsKeyring()): string {
  if (!stored.startsWith(PREFIX)) return stored;
  const parts = stored.split(':');
  if (parts.length !== 5 || parts[1] !== VERSION) throw new SecretBoxError('sealed secret: unknown format or version');
  const [, , keyId, ivText, bodyText] = parts as [string, string, string, string, string];
  const key = [ring.current, ring.previous].find((k) => k?.id === keyId)?.key;
  if (!key) {
    throw new SecretBoxError(
      `sealed secret: key ${keyId} is neither SECRETS_ENCRYPTION_KEY (${ring.current.id}) nor SECRETS_ENCRYPTION_KEY_PREVIOUS (${ring.previous?.id ?? 'unset'})`,
    );
  }
  const iv = Buffer.from(ivText, 'base64url');
  const body = Buffer.from(bodyText, 'base64url');
  if (iv.length !== IV_BYTES || body.length < TAG_BYTES) throw new SecretBoxError('sealed secret: malformed');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAuthTag(body.subarray(body.length - TAG_BYTES));
    return Buffer.concat([decipher.update(body.subarray(0, body.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError('sealed secret: failed authentication (altered, truncated or sealed with another key)');
  }
}

/** True for a value the re-encryption must rewrite: legacy plaintext, or sealed with a key other than the current one. */
export function needsResealing(stored: string, ring: SecretsKeyring = secretsKeyring()): boolean {
  return stored !== '' && !stored.startsWith(sealedPrefix(ring));
}

/** What every value sealed with the current key starts with. */
export function sealedPrefix(ring: SecretsKeyring = secretsKeyring()): string {
  return `${PREFIX}${VERSION}:${ring.current.id}:`;
}
