import { encodeFunctionData, type Abi, type Address, type Hex } from 'viem';
import type { EvmAddress } from '../../common/address-brand';
import artifact from './disperse.json' with { type: 'json' };

export const DISPERSE_ABI = artifact.abi as Abi;

/**
 * Items per disperse transaction unless the lane is told otherwise. Measured on anvil (bench/payouts.ts): about
 * 32k gas per item after a 27k base with the stand-in tokens, so 200 items take ~6.5M gas, a fifth of Ethereum's
 * 30M block and far below BSC's; small enough that a batch is mined in the next block beside other traffic.
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
