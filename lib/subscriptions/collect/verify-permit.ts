import {
  BaseError,
  encodeFunctionData,
  ExecutionRevertedError,
  getAddress,
  parseSignature,
  recoverTypedDataAddress,
  type Address,
  type Hex,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { ApiError } from '@/lib/api/errors';
import { publicClient } from '@/lib/chain/clients';
import { COLLECTOR_ABI } from '@/lib/chain/evm/collector/deploy-collector';
import type { AuthorizeTerms, PermitTypedData } from '@/lib/chain/evm/collector/permit-typed-data';
import { log } from '@/lib/log';
import type { CollectorNetwork } from './collector-network';
import { PERMIT_PERIODS, readPermitBlock } from './permit-block';

/** What the payer's wallet gives back: the two `eth_signTypedData_v4` signatures and the numbers it signed. */
export interface PermitSubmission {
  payer: Address;
  chainId: number;
  permitValue: bigint;
  deadline: bigint;
  permitSignature: Hex;
  authorizeSignature: Hex;
}

/** What permitAndAuthorize is sent with once the pair checked out, and the consent's collector nonce (one transaction per nonce). */
export interface VerifiedPermit {
  data: Hex;
  collectorNonce: bigint;
  gas: bigint;
}

/** secp256k1's n / 2: the collector (like OpenZeppelin's ECDSA) takes lower-half `s` only. */
const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;
/** The operator needs time to get the transaction mined: a pair expiring sooner is refused rather than sent to revert. */
const MIN_DEADLINE_LEFT_SECONDS = 60n;

const refuse = (
  code: 'permit_expired' | 'permit_value_exceeds_cap' | 'permit_wrong_chain' | 'permit_invalid_signature',
  path: string,
  message: string,
) => new ApiError(code, `${path} ${message}`, [{ path, message }]);

/** `eth_signTypedData_v4`'s data as viem hashes it: no EIP712Domain type, uint256 fields as bigints. */
function asSigned(td: PermitTypedData['permit'] | PermitTypedData['authorize']) {
  const { EIP712Domain: _, ...types } = td.types as Record<string, { name: string; type: string }[]>;
  const fields = types[td.primaryType]!;
  const message = Object.fromEntries(
    Object.entries(td.message).map(([k, v]) => [k, fields.find((f) => f.name === k)?.type === 'uint256' ? BigInt(v) : v]),
  );
  return { domain: td.domain, types, primaryType: td.primaryType, message } as Parameters<typeof recoverTypedDataAddress>[0];
}

async function signerOf(
  td: PermitTypedData['permit'] | PermitTypedData['authorize'],
  signature: Hex,
  path: string,
): Promise<{ address: Address; v: number; r: Hex; s: Hex }> {
  try {
    const { r, s, yParity } = parseSignature(signature);
    if (BigInt(s) > HALF_N) throw new Error('high s');
    return { address: await recoverTypedDataAddress({ ...asSigned(td), signature }), v: yParity + 27, r, s };
  } catch {
    throw refuse('permit_invalid_signature', path, 'is not a 65-byte secp256k1 signature with lower-half s');
  }
}

/**
 * Checks the payer's two signatures off chain before anything is sent (docs/subscriptions.md#usdc-set-up-by-signature-eip-2612):
 * the chain id is the rail's, the deadline at least a minute away, the allowance at most what the plan lets the
 * collector take (twelve periods, as offered), and both messages, rebuilt by the gateway from the subscription's own
 * terms (spender = the collector, the token's and the collector's domains, the payer's nonces now), recover to the
 * payer. Then the call is simulated from the operator: whatever else the contract would refuse is refused here. A read
 * that fails is a 503; nothing here sends a transaction.
 */
export async function verifyPermit(net: CollectorNetwork, terms: AuthorizeTerms, p: PermitSubmission, now: Date): Promise<VerifiedPermit> {
  if (p.chainId !== net.chainId)
    throw refuse('permit_wrong_chain', 'chainId', `was signed for chain ${p.chainId}: this subscription's rail is chain ${net.chainId}`);
  const cap = terms.maxPerPeriod * PERMIT_PERIODS;
  if (p.permitValue > cap || p.permitValue < terms.maxPerPeriod)
    throw refuse(
      'permit_value_exceeds_cap',
      'permitValue',
      `must be between one period (${terms.maxPerPeriod}) and ${PERMIT_PERIODS} periods (${cap}) in base units`,
    );
  const [block, head] = await Promise.all([
    readPermitBlock(net, { terms, payer: p.payer, now }),
    publicClient(net.rpcUrl).getBlock({ blockTag: 'latest' }),
  ]).catch((err: unknown) => {
    log.warn('permit set-up unreadable', { error: err instanceof Error ? err.message : String(err) });
    throw new ApiError('service_unavailable', 'The chain could not be read, so the signatures could not be checked: try again in a moment.');
  });
  // The contract judges the deadline by the block's time: the later of it and ours.
  const at = head.timestamp > BigInt(Math.floor(now.getTime() / 1000)) ? head.timestamp : BigInt(Math.floor(now.getTime() / 1000));
  if (p.deadline < at + MIN_DEADLINE_LEFT_SECONDS)
    throw refuse('permit_expired', 'deadline', 'has passed (or is less than a minute away): ask for new typed data and sign again');
  const td = block.typedData!;
  const deadline = p.deadline.toString();
  const permit = { ...td.permit, message: { ...td.permit.message, value: p.permitValue.toString(), deadline } };
  const authorize = { ...td.authorize, message: { ...td.authorize.message, deadline } };
  const [permitSig, authorizeSig] = await Promise.all([
    signerOf(permit, p.permitSignature, 'permitSignature'),
    signerOf(authorize, p.authorizeSignature, 'authorizeSignature'),
  ]);
  for (const [sig, path] of [
    [authorizeSig, 'authorizeSignature'],
    [permitSig, 'permitSignature'],
  ] as const)
    if (getAddress(sig.address) !== getAddress(p.payer))
      throw refuse(
        'permit_invalid_signature',
        path,
        `was not signed by ${p.payer} for this subscription's terms, the collector ${net.collectorAddress} on chain ${net.chainId} and the payer's current nonce`,
      );
  const data = encodeFunctionData({
    abi: COLLECTOR_ABI,
    functionName: 'permitAndAuthorize',
    args: [
      p.payer,
      terms,
      p.permitValue,
      p.deadline,
      { v: permitSig.v, r: permitSig.r, s: permitSig.s },
      { v: authorizeSig.v, r: authorizeSig.r, s: authorizeSig.s },
    ],
  });
  return { data, collectorNonce: BigInt(td.authorize.message.nonce), gas: await simulate(net, data) };
}

/** The gas permitAndAuthorize will take, estimated from the operator: a revert is the contract's refusal (409), a node error a 503. */
async function simulate(net: CollectorNetwork, data: Hex): Promise<bigint> {
  try {
    const gas = await publicClient(net.rpcUrl).estimateGas({
      account: privateKeyToAccount(net.operatorKey).address,
      to: net.collectorAddress as Address,
      data,
    });
    // Headroom for the token's storage changing between the estimate and the block (a first allowance costs more).
    return (gas * 13n) / 10n;
  } catch (err) {
    if (err instanceof BaseError && err.walk((e) => e instanceof ExecutionRevertedError))
      throw new ApiError('collection_not_authorized', `The collector refuses these signatures (${err.shortMessage}): nothing was sent`);
    log.warn('permit set-up simulation failed', { error: err instanceof Error ? err.message : String(err) });
    throw new ApiError('service_unavailable', 'The chain could not be read, so the signatures could not be checked: try again in a moment.');
  }
}
