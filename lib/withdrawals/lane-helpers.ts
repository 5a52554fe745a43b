import { encodeFunctionData, erc20Abi, parseUnits, type Hex } from 'viem';
import type { Withdrawal } from '@/db/schema';
import type { ReadyNetwork } from '@/lib/chain/network';

/** A network whose hot wallet can send: the withdrawal lane needs RPC, token and the hot key. */
export type LaneNetwork = ReadyNetwork<'rpcUrl' | 'tokenAddress' | 'hotWalletKey'>;

export function transferData(to: `0x${string}`, amount: bigint): Hex {
  return encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] });
}

export function transferDataOf(w: Pick<Withdrawal, 'destinationAddress' | 'netAmount'>, net: Pick<LaneNetwork, 'decimals'>): Hex {
  return transferData(w.destinationAddress as `0x${string}`, parseUnits(w.netAmount, net.decimals));
}
