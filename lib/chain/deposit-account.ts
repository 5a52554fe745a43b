import { createECDH, createHmac, pbkdf2Sync } from 'node:crypto';
import { HDKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { getAddress, keccak256, toHex } from 'viem';

/** BIP-44 Ethereum branch m/44'/60'/0'/0: the same path viem's mnemonicToAccount uses with addressIndex. */
const BRANCH = "m/44'/60'/0'/0";
const N = BigInt('0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141');

// The BIP-39 seed (2,048 PBKDF2 rounds) and the branch node are computed once per mnemonic.
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

/** BIP-32 non-hardened child private key of the branch, with Node's native HMAC. */
function childKey(mnemonic: string, index: number): Buffer {
  if (!Number.isInteger(index) || index < 0 || index >= 2 ** 31) throw new Error('deposit index out of range');
  const node = branchOf(mnemonic);
  const data = Buffer.alloc(37);
  Buffer.from(node.publicKey!).copy(data, 0);
  data.writeUInt32BE(index, 33);
  const I = createHmac('sha512', Buffer.from(node.chainCode!)).update(data).digest();
  const il = BigInt(`0x${I.subarray(0, 32).toString('hex')}`);
  const k = (il + BigInt(toHex(node.privateKey!))) % N;
  // Invalid children have probability below 2^-127; BIP-32 says skip them, we refuse loudly instead.
  if (il >= N || k === 0n) throw new Error(`deposit index ${index} derives an invalid key`);
  return Buffer.from(k.toString(16).padStart(64, '0'), 'hex');
}

/**
 * The deposit address at `index`, equal to viem's
 * `mnemonicToAccount(mnemonic, { addressIndex: index }).address`. Uses native
 * secp256k1 (OpenSSL) so invoice creation spends microseconds, not a millisecond, on it.
 */
export function depositAddress(mnemonic: string, index: number): `0x${string}` {
  const ecdh = createECDH('secp256k1');
  ecdh.setPrivateKey(childKey(mnemonic, index));
  const pub = ecdh.getPublicKey(null, 'uncompressed');
  return getAddress(`0x${keccak256(pub.subarray(1)).slice(-40)}`);
}

/** The signing account of the deposit address at `index` (settlement only). Never log its key. */
export function depositAccount(mnemonic: string, index: number): PrivateKeyAccount {
  return privateKeyToAccount(toHex(childKey(mnemonic, index)));
}
