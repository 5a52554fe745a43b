import { createPrivateKey, createPublicKey } from 'node:crypto';
import { getAddressDecoder, type Address } from '@solana/kit';

// PKCS#8 prefix of a raw ed25519 private key (RFC 8410): node:crypto takes the key in this wrapping.
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The address of a configured wallet's ed25519 seed (`0x` + 64 hex), synchronously (node:crypto). */
export function solanaWalletAddress(seedHex: string): Address {
  if (!/^0x[0-9a-fA-F]{64}$/.test(seedHex)) throw new Error('a Solana wallet key must be an ed25519 seed of 32 bytes (0x + 64 hex)');
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, Buffer.from(seedHex.slice(2), 'hex')]), format: 'der', type: 'pkcs8' });
  const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
  return getAddressDecoder().decode(spki.subarray(spki.length - 32));
}
