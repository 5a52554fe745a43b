import { parseUnits } from 'viem';
import type { Plan, Subscription } from '@/db/schema';
import { periodSecondsOf, permissionIdOf, type CollectorNetwork } from './collector-network';
import { pullOpsOf } from './pull-ops';

/**
 * What the payer's wallet signs to allow automatic collection, the same data wherever it is shown (GET
 * /v1/subscriptions/{id}/collection, the checkout, the portal): `approve(spender, amount)` on the token, then
 * `authorize(subscriptionId, token, maxPerPeriod, periodSeconds, start)` on the collector. Amounts in base units;
 * addresses as the payer's wallet writes them (`0x…` lower case on EVM, `T…` on TRON: the family's wire form).
 */
export function collectionSigningData(
  sub: Pick<Subscription, 'id' | 'currentPeriodEnd'>,
  plan: Pick<Plan, 'amount' | 'interval' | 'intervalCount'>,
  net: CollectorNetwork,
) {
  const amount = parseUnits(plan.amount, net.decimals);
  const wire = pullOpsOf(net).wireAddress;
  return {
    chainId: net.chainId,
    tokenAddress: wire(net.tokenAddress),
    decimals: net.decimals,
    collectorAddress: wire(net.collectorAddress),
    approve: { spender: wire(net.collectorAddress), amountPerPeriod: amount.toString() },
    authorize: {
      subscriptionId: permissionIdOf(sub.id),
      token: wire(net.tokenAddress),
      maxPerPeriod: amount.toString(),
      periodSeconds: periodSecondsOf(plan),
      // Periods billed from the set-up on are pulled: the next one starts at the current period's end.
      start: String(Math.floor(sub.currentPeriodEnd.getTime() / 1000)),
    },
  };
}

export type CollectionSigningData = ReturnType<typeof collectionSigningData>;
