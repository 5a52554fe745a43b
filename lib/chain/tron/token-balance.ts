import { z } from 'zod';
import { toEvm, toHex41 } from './address';
import { TronNodeError, type TronNodeClient } from './node-client';

const answer = z.object({
  result: z.object({ result: z.boolean().optional(), message: z.string().optional() }),
  constant_result: z.array(z.string()).optional(),
});

/** A TRC-20 `balanceOf(owner)` at the head, in base units. A revert, an empty or malformed answer throws: never 0. */
export async function readTrc20Balance(client: TronNodeClient, token: string, owner: string): Promise<bigint> {
  const out = answer.parse(
    await client.wallet('triggerconstantcontract', {
      owner_address: toHex41(owner),
      contract_address: toHex41(token),
      function_selector: 'balanceOf(address)',
      parameter: toEvm(owner).slice(2).padStart(64, '0'),
    }),
  );
  const value = out.constant_result?.[0];
  if (out.result.result !== true || !value || !/^[0-9a-f]{64}$/i.test(value)) {
    throw new TronNodeError('/wallet/triggerconstantcontract', `balanceOf gave no answer (${out.result.message ?? 'no result'})`);
  }
  return BigInt(`0x${value}`);
}
