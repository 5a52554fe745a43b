import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { resetEnvCache } from '@/lib/env';
import { needsResealing, openSecret, sealSecret, SecretBoxError } from './secret-box';
import { decodeSecretsKey, DEV_SECRETS_ENCRYPTION_KEY } from '@/lib/config/secrets-key';
import { keyringOf, secretsKeyId, secretsKeyring } from './secrets-keyring';

const keyA = randomBytes(32);
const keyB = randomBytes(32);
const ringA = keyringOf(keyA);
const secret = 'whsec_' + randomBytes(32).toString('base64url');

/** Replaces one base64url character of part `index` (2 = key id, 3 = IV, 4 = ciphertext + tag) of a sealed value. */
function alter(sealed: string, index: number, at = 5): string {
  const parts = sealed.split(':');
  const p = parts[index]!;
  parts[index] = p.slice(0, at) + (p[at] === 'A' ? 'B' : 'A') + p.slice(at + 1);
  return parts.join(':');
}

describe('secret box (AES-256-GCM)', () => {
  it('round-trips, naming the key, with a fresh IV each time', () => {
    const sealed = sealSecret(secret, ringA);
    expect(sealed).toMatch(new RegExp(`^enc:v1:${secretsKeyId(keyA)}:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]+$`));
    expect(sealed).not.toContain(secret);
    expect(openSecret(sealed, ringA)).toBe(secret);
    const again = sealSecret(secret, ringA);
    expect(again).not.toBe(sealed);
    expect(again.split(':')[3]).not.toBe(sealed.split(':')[3]);
    expect(openSecret(sealSecret('', ringA), ringA)).toBe('');
    expect(openSecret(sealSecret('üñí 💸', ringA), ringA)).toBe('üñí 💸');
  });

  it('throws on a tampered ciphertext, tag or IV, a truncated value and a wrong key, without showing the value', () => {
    const sealed = sealSecret(secret, ringA);
    const body = sealed.split(':')[4]!;
    const tampered = [
      alter(sealed, 4), // ciphertext
      alter(sealed, 4, body.length - 3), // tag
      alter(sealed, 3), // IV
      sealed.slice(0, -4), // truncated
      sealed.split(':').slice(0, 4).join(':') + ':', // no body
    ];
    for (const bad of tampered) {
      expect(() => openSecret(bad, ringA)).toThrow(SecretBoxError);
      try {
        openSecret(bad, ringA);
      } catch (err) {
        expect((err as Error).message).not.toContain(bad.split(':')[4] || 'nothing-to-leak');
        expect((err as Error).message).not.toContain(secret);
      }
    }
    // Same key id, another key (as if the key id collided or the key were swapped under the same name).
    const impostor = { current: { id: ringA.current.id, key: keyB }, previous: null };
    expect(() => openSecret(sealed, impostor)).toThrow(/failed authentication/);
    expect(() => openSecret('enc:v2:abc:def:ghi', ringA)).toThrow(/unknown format or version/);
    expect(() => openSecret('enc:v1:onlythree', ringA)).toThrow(SecretBoxError);
  });

  it('opens values sealed with the previous key; a key that is neither current nor previous is named in the error', () => {
    const underA = sealSecret(secret, ringA);
    const rotated = keyringOf(keyB, keyA);
    expect(rotated.previous!.id).toBe(secretsKeyId(keyA));
    expect(openSecret(underA, rotated)).toBe(secret);
    expect(sealSecret(secret, rotated).split(':')[2]).toBe(secretsKeyId(keyB));
    expect(() => openSecret(underA, keyringOf(keyB))).toThrow(new RegExp(`key ${secretsKeyId(keyA)} is neither`));
  });

  it('returns legacy plaintext as is, and says what the re-encryption must rewrite', () => {
    expect(openSecret(secret, ringA)).toBe(secret);
    expect(openSecret('JBSWY3DPEHPK3PXP', ringA)).toBe('JBSWY3DPEHPK3PXP'); // a base32 TOTP secret
    expect(needsResealing(secret, ringA)).toBe(true);
    expect(needsResealing('', ringA)).toBe(false); // a deleted endpoint's emptied secret
    expect(needsResealing(sealSecret(secret, ringA), ringA)).toBe(false);
    expect(needsResealing(sealSecret(secret, ringA), keyringOf(keyB, keyA))).toBe(true);
  });
});

describe('keys', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
    resetEnvCache();
  });

  it('decodes 32-byte keys in base64, base64url and hex, and nothing else', () => {
    expect(decodeSecretsKey(keyA.toString('base64'))!.equals(keyA)).toBe(true);
    expect(decodeSecretsKey(keyA.toString('base64url'))!.equals(keyA)).toBe(true);
    expect(decodeSecretsKey(keyA.toString('hex'))!.equals(keyA)).toBe(true);
    expect(decodeSecretsKey(` ${keyA.toString('hex')}\n`)!.equals(keyA)).toBe(true);
    expect(decodeSecretsKey(randomBytes(16).toString('base64'))).toBeNull();
    expect(decodeSecretsKey(randomBytes(31).toString('hex'))).toBeNull();
    expect(decodeSecretsKey('correct horse battery staple')).toBeNull();
  });

  it('uses SECRETS_ENCRYPTION_KEY and _PREVIOUS, and the development key outside production when unset', () => {
    delete process.env.SECRETS_ENCRYPTION_KEY;
    delete process.env.SECRETS_ENCRYPTION_KEY_PREVIOUS;
    resetEnvCache();
    expect(secretsKeyring().current.id).toBe(secretsKeyId(DEV_SECRETS_ENCRYPTION_KEY));
    expect(secretsKeyring().previous).toBeNull();

    process.env.SECRETS_ENCRYPTION_KEY = keyB.toString('hex');
    process.env.SECRETS_ENCRYPTION_KEY_PREVIOUS = keyA.toString('base64');
    resetEnvCache();
    const ring = secretsKeyring();
    expect(ring.current.key.equals(keyB)).toBe(true);
    expect(ring.previous!.key.equals(keyA)).toBe(true);
    expect(openSecret(sealSecret(secret, ringA))).toBe(secret); // the env ring opens a value sealed under the previous key
  });
});
