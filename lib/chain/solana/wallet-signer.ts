import { createKeyPairSignerFromPrivateKeyBytes, type KeyPairSigner } from '@solana/kit';

/** A gateway wallet (gas, hot) from its configured ed25519 seed (`0x` + 64 hex, lib/config/solana/). */
export function solanaWalletSigner(seed: `0x${string}`): Promise<KeyPairSigner> {
  const bytes = Buffer.from(seed.slice(2), 'hex');
  if (bytes.length !== 32) throw new Error('a Solana wallet key is a 32-byte ed25519 seed (0x + 64 hex)');
  return createKeyPairSignerFromPrivateKeyBytes(bytes);
}
