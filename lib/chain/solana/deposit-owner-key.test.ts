import { describe, expect, it } from 'vitest';
import { createKeyPairSignerFromPrivateKeyBytes, getAddressEncoder } from '@solana/kit';
import { DEV_MNEMONIC } from '@/lib/config/network-env';
import { slip10Ed25519, solanaDepositOwner } from './deposit-owner-key';

const hex = (b: ArrayLike<number>) => Buffer.from(Uint8Array.from(b)).toString('hex');

describe('Solana deposit owner keys', () => {
  // SLIP-0010 test vector 1 for ed25519 (satoshilabs/slips slip-0010.md; as quoted by iotaledger/crypto.rs fixtures).
  it('derives the SLIP-0010 ed25519 test vector 1', async () => {
    const seed = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
    expect(hex(slip10Ed25519(seed, []))).toBe('2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7');
    expect(hex(slip10Ed25519(seed, [0]))).toBe('68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3');
    expect(hex(slip10Ed25519(seed, [0, 1]))).toBe('b1d0bad404bf35da785a64ca1ac54b2617211d2777696fbffaf208f746ae84f2');
    expect(hex(slip10Ed25519(seed, [0, 1, 2]))).toBe('92a5b23c0b8a99e37d07df3fb9966917f5d06e02ddbd909c7e184371463e9fc9');
    // The vector's public key of m/0' (less SLIP-0010's 0x00 prefix) is the address @solana/kit makes from that key.
    const signer = await createKeyPairSignerFromPrivateKeyBytes(slip10Ed25519(seed, [0]));
    expect(hex(getAddressEncoder().encode(signer.address))).toBe('8c8a13df77a28f3445213a0f432fde644acaa215fc72dcdf300d5efaa85d350c');
  });

  it('gives each invoice index its own owner, the same one every time', async () => {
    const [a, b, a2] = await Promise.all([
      solanaDepositOwner(DEV_MNEMONIC, 0),
      solanaDepositOwner(DEV_MNEMONIC, 1),
      solanaDepositOwner(DEV_MNEMONIC, 0),
    ]);
    expect(a.address).toBe(a2.address);
    expect(a.address).not.toBe(b.address);
    expect(hex(getAddressEncoder().encode(a.address))).toHaveLength(64);
    await expect(solanaDepositOwner(DEV_MNEMONIC, 2 ** 31)).rejects.toThrow(/out of range/);
  });
});
