import type { FamilyOps } from './family-ops';
import { EVM_ADDRESS_CODEC } from './evm/address-codec';
import { checkEvmRail } from './check-evm-rail';
import { depositAddress } from './deposit-account';
import { readEvmFreezeList } from './freeze-list';
import { resultOf, rpcBatch } from './rpc-batch';
import { privateKeyToAddress } from 'viem/accounts';

/**
 * The EVM family (BSC, Ethereum, Polygon…): JSON-RPC, one deposit branch for every network. Method bodies call
 * their module lazily, so the module cycles through families.ts never meet a binding before its module has run.
 */
export const EVM_FAMILY: FamilyOps<'evm'> = {
  family: 'evm',
  // One branch (m/44'/60'/0'/0) for every EVM network: index i is the same address on each, which is what lets a
  // payment on the wrong EVM network be held, not lost; the pool job derives it ahead (refill-address-pool.ts).
  pooledAddresses: true,
  depositAddress: (mnemonic, index) => EVM_ADDRESS_CODEC.parseStored(depositAddress(mnemonic, index)),
  walletAddress: (key) => EVM_ADDRESS_CODEC.parse(privateKeyToAddress(key)),
  // The stored lower-case form, as the EIP-681 URI carries it.
  // EIP-55, as the API states it: a wallet that checks the checksum accepts it, and a person can compare it by eye.
  payerAddress: (stored) => EVM_ADDRESS_CODEC.parse(stored),
  paymentUri: ({ token, chainId, to, units }) => `ethereum:${token}@${chainId}/transfer?address=${to}&uint256=${units}`,
  checkRail: (net) => checkEvmRail(net),
  readHead: async (net, timeoutMs) => {
    const [o] = await rpcBatch(net.rpcUrl, [{ method: 'eth_blockNumber', params: [] }], { timeoutMs });
    return Number(BigInt(resultOf(o!, 'eth_blockNumber') as string));
  },
  readFreezeList: (net, _fn, address) => readEvmFreezeList(net, address),
  // Any valid address can hold the token (the freeze list is read apart).
  judgeDestination: () => Promise.resolve(null),
};
