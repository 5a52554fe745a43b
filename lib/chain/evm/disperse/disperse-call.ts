import { encodeFunctionData, type Abi, type Address, type Hex } from 'viem';
import type { EvmAddress } from '../../common/address-brand';
import artifact from './disperse.json' with { type: 'json' };

export const DISPERSE_ABI = artifact.abi as Abi;

/**
 * Items per disperse transaction unless the lane is told otherwise. Measured on anvil (bench/payouts.ts): about
 * 28k gas per item with the stand-in tokens (a single transfer: ~54k), so 200 items take ~5.6M gas, under a fifth
 * of a 30M block (Ethereum, BSC); small enough that a batch is mined in the next block beside other traffic. Real
 * tokens with heavier transfers (USDC's proxy and blacklist reads) cost more per item: still well under the limit.
 */
export const DEFAULT_DISPERSE_CAP = 200;

/** The call data of one batch: `disperseToken(token, recipients, values)`; only EVM addresses may be recipients. */
export function disperseData(token: Address, payments: { to: EvmAddress; amount: bigint }[]): Hex {
  return encodeFunctionData({
    abi: DISPERSE_ABI,
    functionName: 'disperseToken',
    args: [token, payments.map((p) => p.to), payments.map((p) => p.amount)],
  });
}
