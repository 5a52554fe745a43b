import { createPrivateKey, createPublicKey, pbkdf2Sync } from 'node:crypto';
import { getAddressDecoder, type Address } from '@solana/kit';
import { slip10Ed25519 } from './deposit-owner-key';

// PKCS#8 prefix of a raw ed25519 private key (RFC 8410): node:crypto takes the key in this wrapping.
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * The public key (the wallet address) of the per-invoice deposit owner at `index`, synchronously: the same key as
 * solanaDepositOwner (m/44'/501'/index'/0', SLIP-0010), derived with node:crypto because deposit addresses are
 * made synchronously (FamilyOps.depositAddress). deposit-owner-address.test.ts compares the two.
 */
export function solanaDepositOwnerAddress(mnemonic: string, index: number): Address {
  if (!Number.isInteger(index) || index < 0 || index >= 0x8000_0000) throw new Error('deposit index out of range');
  const seed = pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512');
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519, slip10Ed25519(seed, [44, 501, index, 0])]), format: 'der', type: 'pkcs8' });
  // The SPKI encoding ends with the 32-byte public key.
  const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
  return getAddressDecoder().decode(spki.subarray(spki.length - 32));
}
