import { createHmac, pbkdf2Sync } from 'node:crypto';
import { createKeyPairSignerFromPrivateKeyBytes, type KeyPairSigner } from '@solana/kit';

const HARDENED = 0x8000_0000;

/**
 * SLIP-0010 for ed25519: every level hardened (ed25519 has no public derivation). Returns the 32-byte private key
 * (the seed of the ed25519 key) at `path`, given as child indexes without the hardened bit.
 */
export function slip10Ed25519(seed: Uint8Array, path: readonly number[]): Uint8Array {
  let I = createHmac('sha512', 'ed25519 seed').update(seed).digest();
  for (const index of path) {
    if (!Number.isInteger(index) || index < 0 || index >= HARDENED) throw new Error(`SLIP-0010 index ${index} out of range`);
    const data = Buffer.alloc(37);
    I.copy(data, 1, 0, 32);
    data.writeUInt32BE(index + HARDENED, 33);
    I = createHmac('sha512', I.subarray(32)).update(data).digest();
  }
  return new Uint8Array(I.subarray(0, 32));
}

/**
 * The per-invoice deposit owner at `index` of the deposit mnemonic: m/44'/501'/index'/0', the path Phantom and
 * Solflare give their accounts, so an operator can import one into a wallet. The owner holds no SOL; its
 * associated token account receives the payment and is swept and closed with the gas wallet as fee payer.
 */
export async function solanaDepositOwner(mnemonic: string, index: number): Promise<KeyPairSigner> {
  if (!Number.isInteger(index) || index < 0 || index >= HARDENED) throw new Error('deposit index out of range');
  const seed = pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512');
  return createKeyPairSignerFromPrivateKeyBytes(slip10Ed25519(seed, [44, 501, index, 0]));
}
