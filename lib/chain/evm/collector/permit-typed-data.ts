import type { Address, Hex } from 'viem';

const DOMAIN_TYPE = [
  { name: 'name', type: 'string' },
  { name: 'version', type: 'string' },
  { name: 'chainId', type: 'uint256' },
  { name: 'verifyingContract', type: 'address' },
];

/** What a payer authorizes on the collector: the arguments of `authorize` (the contract's `Terms`). */
export interface AuthorizeTerms {
  subscriptionId: Hex;
  token: Address;
  maxPerPeriod: bigint;
  periodSeconds: bigint;
  start: bigint;
}

/**
 * The two EIP-712 messages a payer signs for a gasless set-up on a token with EIP-2612 (docs/subscriptions.md):
 * the token's `Permit` (the allowance to the collector) and the collector's `Authorize` (the permission), both until
 * `deadline`, each with the payer's current nonce on its contract. Numbers are decimal strings, as
 * `eth_signTypedData_v4` takes them; `types` include `EIP712Domain` as wallets expect.
 */
export function permitTypedData(p: {
  chainId: number;
  collector: Address;
  token: { address: Address; name: string; version: string };
  payer: Address;
  terms: AuthorizeTerms;
  permitValue: bigint;
  deadline: bigint;
  tokenNonce: bigint;
  collectorNonce: bigint;
}) {
  const s = (n: bigint) => n.toString();
  return {
    permit: {
      domain: { name: p.token.name, version: p.token.version, chainId: p.chainId, verifyingContract: p.token.address },
      types: {
        EIP712Domain: DOMAIN_TYPE,
        Permit: [
          { name: 'owner', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
        ],
      },
      primaryType: 'Permit' as const,
      message: { owner: p.payer, spender: p.collector, value: s(p.permitValue), nonce: s(p.tokenNonce), deadline: s(p.deadline) },
    },
    authorize: {
      domain: { name: 'SubscriptionCollector', version: '1', chainId: p.chainId, verifyingContract: p.collector },
      types: {
        EIP712Domain: DOMAIN_TYPE,
        Authorize: [
          { name: 'payer', type: 'address' },
          { name: 'subscriptionId', type: 'bytes32' },
          { name: 'token', type: 'address' },
          { name: 'maxPerPeriod', type: 'uint256' },
          { name: 'periodSeconds', type: 'uint256' },
          { name: 'start', type: 'uint256' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
        ],
      },
      primaryType: 'Authorize' as const,
      message: {
        payer: p.payer,
        subscriptionId: p.terms.subscriptionId,
        token: p.terms.token,
        maxPerPeriod: s(p.terms.maxPerPeriod),
        periodSeconds: s(p.terms.periodSeconds),
        start: s(p.terms.start),
        nonce: s(p.collectorNonce),
        deadline: s(p.deadline),
      },
    },
  };
}
export type PermitTypedData = ReturnType<typeof permitTypedData>;
