import type { FamilyOps } from './family-ops';
import { TRON_ADDRESS_CODEC } from './tron/address-codec';
import { EVM_ADDRESS_CODEC } from './evm/address-codec';
import { privateKeyToAddress } from 'viem/accounts';
import { checkTronRail } from './check-tron-rail';
import { tronClientOf } from './tron-network-client';
import { tronDepositKey } from './tron/deposit-key';
import { readTronHeads } from './tron/read-chain';
import { readFreezeList } from './tron/resources';

/**
 * The TRON family (docs/tron.md): its HTTP API and JSON-RPC through lib/chain/tron. Method bodies call their
 * module lazily (see evm-family.ts).
 */
export const TRON_FAMILY: FamilyOps<'tron'> = {
  family: 'tron',
  // Its own branch (m/44'/195'/0'/0, what TronLink and Ledger restore), derived at claim time from the one index sequence.
  pooledAddresses: false,
  depositAddress: (mnemonic, index) => tronDepositKey(mnemonic, index).hex,
  // The same secp256k1 key as on EVM: its 20 bytes as a `T…` address.
  walletAddress: (key) => TRON_ADDRESS_CODEC.wireForm(EVM_ADDRESS_CODEC.accountBytes(privateKeyToAddress(key))),
  payerAddress: (stored) => TRON_ADDRESS_CODEC.wireForm(TRON_ADDRESS_CODEC.accountBytes(stored)),
  // No payment URI that TRON wallets agree on (docs/tron.md §1, "Checkout"): TronLink and Trust Wallet scan the plain T… address.
  paymentUri: () => null,
  checkRail: (net) => checkTronRail(net),
  readHead: async (net, timeoutMs) => (await readTronHeads(tronClientOf(net, timeoutMs), net.confirmations)).head.number,
  readFreezeList: (net, fn, address) => readFreezeList(tronClientOf(net), net.tokenAddress, fn, address),
  // Any valid address can hold the token (the freeze list is read apart).
  judgeDestination: () => Promise.resolve(null),
};
