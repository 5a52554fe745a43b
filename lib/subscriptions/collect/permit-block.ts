import { decodeFunctionResult, domainSeparator, encodeFunctionData, parseAbi, type Abi, type Address, type Hex } from 'viem';
import { COLLECTOR_ABI } from '@/lib/chain/evm/collector/deploy-collector';
import { permitTypedData, type AuthorizeTerms } from '@/lib/chain/evm/collector/permit-typed-data';
import { resultOf, rpcBatch, RpcReadError } from '@/lib/chain/rpc-batch';
import type { CollectorNetwork } from './collector-network';

const PERMIT_TOKEN_ABI = parseAbi([
  'function name() view returns (string)',
  'function version() view returns (string)',
  'function DOMAIN_SEPARATOR() view returns (bytes32)',
  'function nonces(address) view returns (uint256)',
]);

/** The allowance the permit asks for: twelve periods (a year of a monthly plan); the payer signs a new one after. */
export const PERMIT_PERIODS = 12n;
/** How long the two signatures stay valid: the operator submits them at once, an old pair is refused. */
export const PERMIT_TTL_SECONDS = 3_600n;

/**
 * The `permit` block of GET /v1/subscriptions/{id}/collection for a rail whose token has EIP-2612 (USDC): the allowance
 * and deadline, and with the payer's address the two EIP-712 messages to sign (their nonces read now). The token's
 * name and version are read from the contract and checked against its DOMAIN_SEPARATOR, so a wallet never signs for a
 * domain the token would not verify. One batch, one node; a failed read or a mismatch throws (the route's 503).
 */
export async function readPermitBlock(net: CollectorNetwork, p: { terms: AuthorizeTerms; payer?: Address; now: Date }) {
  const permitValue = p.terms.maxPerPeriod * PERMIT_PERIODS;
  const deadline = BigInt(Math.floor(p.now.getTime() / 1000)) + PERMIT_TTL_SECONDS;
  const call = (to: Address, data: Hex) => ({ method: 'eth_call', params: [{ to, data }, 'latest'] });
  const token = (functionName: 'name' | 'version' | 'DOMAIN_SEPARATOR') =>
    call(net.tokenAddress, encodeFunctionData({ abi: PERMIT_TOKEN_ABI, functionName }));
  const out = await rpcBatch(net.rpcUrl, [
    token('name'),
    token('version'),
    token('DOMAIN_SEPARATOR'),
    ...(p.payer
      ? [
          call(net.tokenAddress, encodeFunctionData({ abi: PERMIT_TOKEN_ABI, functionName: 'nonces', args: [p.payer] })),
          call(net.collectorAddress, encodeFunctionData({ abi: COLLECTOR_ABI, functionName: 'nonces', args: [p.payer] })),
        ]
      : []),
  ]);
  const decode = (i: number, functionName: 'name' | 'version' | 'DOMAIN_SEPARATOR' | 'nonces'): unknown =>
    decodeFunctionResult({ abi: PERMIT_TOKEN_ABI as Abi, functionName, data: resultOf(out[i]!, functionName) as Hex });
  const name = decode(0, 'name') as string;
  const version = decode(1, 'version') as string;
  const separator = decode(2, 'DOMAIN_SEPARATOR') as Hex;
  if (domainSeparator({ domain: { name, version, chainId: net.chainId, verifyingContract: net.tokenAddress } }) !== separator)
    throw new RpcReadError(`the token's DOMAIN_SEPARATOR is not (${name}, ${version}, ${net.chainId}, its address)`);
  const typedData = p.payer
    ? permitTypedData({
        chainId: net.chainId,
        collector: net.collectorAddress,
        token: { address: net.tokenAddress, name, version },
        payer: p.payer,
        terms: p.terms,
        permitValue,
        deadline,
        tokenNonce: decode(3, 'nonces') as bigint,
        collectorNonce: decode(4, 'nonces') as bigint,
      })
    : null;
  return { permitValue: permitValue.toString(), deadline: deadline.toString(), typedData };
}
