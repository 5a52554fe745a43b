import { pbkdf2Sync } from 'node:crypto';
import { HDKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { toHex } from 'viem';

/** BIP-44 Ethereum branch m/44'/60'/0'/0: the same path viem's mnemonicToAccount uses with addressIndex. */
const BRANCH = "m/44'/60'/0'/0";

// The BIP-39 seed (2,048 PBKDF2 rounds) and the branch node are computed once per
// mnemonic, so each new address costs one child derivation instead of milliseconds.
const branches = new Map<string, HDKey>();

function branchOf(mnemonic: string): HDKey {
  let node = branches.get(mnemonic);
  if (!node) {
    const seed = pbkdf2Sync(mnemonic.normalize('NFKD'), 'mnemonic', 2048, 64, 'sha512');
    node = HDKey.fromMasterSeed(seed).derive(BRANCH);
    branches.set(mnemonic, node);
  }
  return node;
}

/**
 * The deposit account at `index` (equal to viem's `mnemonicToAccount(mnemonic, { addressIndex: index })`).
 * The private key stays inside the returned account; never log it.
 */
export function depositAccount(mnemonic: string, index: number): PrivateKeyAccount {
  const child = branchOf(mnemonic).deriveChild(index);
  if (!child.privateKey) throw new Error('deposit key derivation failed');
  return privateKeyToAccount(toHex(child.privateKey));
}
