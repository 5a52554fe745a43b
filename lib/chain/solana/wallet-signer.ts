import { createKeyPairSignerFromPrivateKeyBytes, type KeyPairSigner } from '@solana/kit';

/** A configured wallet's signer from its ed25519 seed (`0x` + 64 hex, lib/config/solana); the key is never logged. */
export function solanaWalletSigner(seedHex: string): Promise<KeyPairSigner> {
  if (!/^0x[0-9a-fA-F]{64}$/.test(seedHex)) throw new Error('a Solana wallet key must be an ed25519 seed of 32 bytes (0x + 64 hex)');
  return createKeyPairSignerFromPrivateKeyBytes(Buffer.from(seedHex.slice(2), 'hex'));
}
