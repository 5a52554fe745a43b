import { encodeFunctionData, erc20Abi, parseUnits, type Hex } from 'viem';
import type { Withdrawal } from '@/db/schema';
import type { Network, ReadyNetwork } from '@/lib/chain/network';
import type { EvmAddress } from '@/lib/chain/common/address-brand';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';

/** A network whose hot wallet can send: the withdrawal lane needs RPC, token and the hot key (`LaneNetwork<EvmNetwork>` in a family's lane). */
export type LaneNetwork<N extends Network = Network> = ReadyNetwork<'rpcUrl' | 'tokenAddress' | 'hotWalletKey', N>;

/** An ERC-20 transfer's call data: only an EVM address may be its recipient. */
export function transferData(to: EvmAddress, amount: bigint): Hex {
  return encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] });
}

export function transferDataOf(w: Pick<Withdrawal, 'destinationAddress' | 'netAmount'>, net: Pick<LaneNetwork, 'decimals'>): Hex {
  return transferData(EVM_ADDRESS_CODEC.parse(w.destinationAddress), parseUnits(w.netAmount, net.decimals));
}
