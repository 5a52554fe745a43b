import { decodeFunctionResult, encodeFunctionData, type Abi } from 'viem';
import { z } from 'zod';
import { toHex41 } from './address';
import { TronNodeError, type TronNodeClient } from './node-client';

const answer = z.object({
  result: z.object({ result: z.boolean().optional(), message: z.string().optional() }),
  constant_result: z.array(z.string()).optional(),
});

/**
 * A view function of a contract at the head (`/wallet/triggerconstantcontract`), encoded and decoded with the
 * contract's ABI as on EVM (address arguments in `0x` form: TRON's 20 account bytes). A revert, an empty or
 * malformed answer throws: a failed read is never an answer.
 */
export async function readTronView(
  client: TronNodeClient,
  q: { contract: string; abi: Abi; functionName: string; args: readonly unknown[] },
): Promise<unknown> {
  const data = encodeFunctionData({ abi: q.abi, functionName: q.functionName, args: q.args });
  const fn = q.abi.find((f) => f.type === 'function' && f.name === q.functionName) as unknown as { inputs: { type: string }[] };
  const out = answer.parse(
    await client.wallet('triggerconstantcontract', {
      owner_address: toHex41(q.contract),
      contract_address: toHex41(q.contract),
      function_selector: `${q.functionName}(${fn.inputs.map((i) => i.type).join(',')})`,
      parameter: data.slice(10),
    }),
  );
  const value = out.constant_result?.[0];
  if (out.result.result !== true || !value || !/^([0-9a-f]{64})+$/i.test(value)) {
    throw new TronNodeError('/wallet/triggerconstantcontract', `${q.functionName} gave no answer (${out.result.message ?? 'no result'})`);
  }
  return decodeFunctionResult({ abi: q.abi, functionName: q.functionName, data: `0x${value}` });
}
