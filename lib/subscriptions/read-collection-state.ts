import { encodeFunctionData, erc20Abi, type Address, type Hex } from 'viem';
import { resultOf, rpcBatch } from '@/lib/chain/rpc-batch';
import { COLLECTOR_ABI } from '@/lib/chain/evm/collector/deploy-collector';

/**
 * Why a pull would not go through, decided before it is recorded or broadcast (issue 48 §2): the payer's balance,
 * their allowance to the collector (zero is the payer cancelling automatic collection, not the subscription) and what
 * the permission still allows this period (revoked, not started, or already pulled: 0).
 */
export type CollectionState = { balance: bigint; allowance: bigint; available: bigint } & (
  { ready: true } | { ready: false; reason: 'allowance_revoked' | 'insufficient_allowance' | 'insufficient_balance' | 'not_authorized' }
);

/** One batch to one node, so the three answers are of the same block; an unanswered read throws RpcReadError (retry later). */
export async function readCollectionState(
  net: { rpcUrl: string; collectorAddress: Address },
  p: { subscriptionId: Hex; payer: Address; token: Address; amount: bigint },
): Promise<CollectionState> {
  const call = (to: Address, data: Hex) => ({ method: 'eth_call', params: [{ to, data }, 'latest'] });
  const out = await rpcBatch(net.rpcUrl, [
    call(p.token, encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [p.payer] })),
    call(p.token, encodeFunctionData({ abi: erc20Abi, functionName: 'allowance', args: [p.payer, net.collectorAddress] })),
    call(net.collectorAddress, encodeFunctionData({ abi: COLLECTOR_ABI, functionName: 'available', args: [p.subscriptionId, p.payer] })),
  ]);
  const [balance, allowance, available] = out.map((o, i) => BigInt(resultOf(o, ['balanceOf', 'allowance', 'available'][i]!) as string)) as [
    bigint,
    bigint,
    bigint,
  ];
  return judgeCollectionState({ balance, allowance, available }, p.amount);
}

/** The verdict on what was read (either family): the permission first, then the allowance, then the balance. */
export function judgeCollectionState(seen: { balance: bigint; allowance: bigint; available: bigint }, amount: bigint): CollectionState {
  const { balance, allowance, available } = seen;
  // The permission first: without it the payer's money is not ours to ask about.
  if (available < amount) return { ...seen, ready: false, reason: 'not_authorized' };
  if (allowance === 0n) return { ...seen, ready: false, reason: 'allowance_revoked' };
  if (allowance < amount) return { ...seen, ready: false, reason: 'insufficient_allowance' };
  if (balance < amount) return { ...seen, ready: false, reason: 'insufficient_balance' };
  return { ...seen, ready: true };
}
