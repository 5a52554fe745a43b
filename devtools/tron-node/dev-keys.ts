import { pbkdf2Sync } from 'node:crypto';
import { toHex } from 'viem';
import { HDKey, privateKeyToAccount } from 'viem/accounts';
import { toBase58 } from './address';

/** anvil's and hardhat's mnemonic, the gateway's dev default too (dev-keys.test.ts checks they agree). */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk';

/** The stand-in's own wallets: the dev mnemonic's second TRON account, so they are never a gateway deposit address. */
export const STAND_IN_BRANCH = "m/44'/195'/1'/0";

export interface TronKey {
  privateKey: string;
  /** Base58Check `T…`. */
  address: string;
  /** Lower-case `41…` hex. */
  hex: string;
}

let branch: HDKey | undefined;

/** The stand-in wallet at `i` (m/44'/195'/1'/0/i of DEV_MNEMONIC): the same each start, so a dev chain looks the same. */
export function devKey(i: number): TronKey {
  // BIP-39 seed (2,048 PBKDF2 rounds) computed once.
  branch ??= HDKey.fromMasterSeed(pbkdf2Sync(DEV_MNEMONIC, 'mnemonic', 2048, 64, 'sha512')).derive(STAND_IN_BRANCH);
  const key = branch.deriveChild(i).privateKey;
  if (!key) throw new Error(`dev key ${i} derives no key`);
  const hex = `41${privateKeyToAccount(toHex(key)).address.slice(2).toLowerCase()}`;
  return { privateKey: Buffer.from(key).toString('hex'), address: toBase58(hex), hex };
}
