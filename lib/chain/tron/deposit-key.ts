import { pbkdf2Sync } from 'node:crypto';
import { HDKey, privateKeyToAccount } from 'viem/accounts';
import { toHex } from 'viem';
import type { TronStoredAddress, TronWireAddress } from '../common/address-brand';
import { TRON_ADDRESS_CODEC } from './address-codec';

/** BIP-44 TRON branch (coin type 195), what TronLink and Ledger use: deposit index i is m/44'/195'/0'/0/i. */
export const TRON_BRANCH = "m/44'/195'/0'/0";

const branches = new Map<string, HDKey>();

/** The branch node of a mnemonic (and path), computed once: the BIP-39 seed costs 2,048 PBKDF2 rounds. */
export function tronBranch(mnemonic: string, branch = TRON_BRANCH): HDKey {
  const cacheKey = `${branch}\n${mnemonic}`;
  let node = branches.get(cacheKey);
  if (!node) {
    const seed = pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512');
    node = HDKey.fromMasterSeed(seed).derive(branch);
    branches.set(cacheKey, node);
  }
  return node;
}

export interface TronAccountKey {
  /** Base58Check `T…`. */
  address: TronWireAddress;
  /** Stored form: lower-case `41…` hex. */
  hex: TronStoredAddress;
  /** 32-byte key as hex without 0x (TronWeb's form). Never log it. */
  privateKey: string;
}

/** The TRON deposit account at `index` of the mnemonic's TRON branch. */
export function tronDepositKey(mnemonic: string, index: number, branch = TRON_BRANCH): TronAccountKey {
  if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31) throw new Error('deposit index out of range');
  const key = tronBranch(mnemonic, branch).deriveChild(index).privateKey;
  if (!key) throw new Error(`deposit index ${index} derives no key`);
  // Same secp256k1 key and keccak address bytes as EVM; TRON prefixes 0x41 and encodes Base58Check.
  const evm = privateKeyToAccount(toHex(key)).address;
  const hex = TRON_ADDRESS_CODEC.storedForm(evm);
  return { address: TRON_ADDRESS_CODEC.wireForm(evm), hex, privateKey: Buffer.from(key).toString('hex') };
}
