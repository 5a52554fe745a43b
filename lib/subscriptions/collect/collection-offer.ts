import { addressRuleOf } from '@/lib/chain/address-rules';
import { and, eq, ne } from 'drizzle-orm';
import { encodeFunctionData, formatUnits, type Hex } from 'viem';
import { plans, subscriptionCollections, subscriptionPeriods, subscriptions, tenants, type Subscription } from '@/db/schema';
import { COLLECTOR_ABI } from '@/lib/chain/evm/collector/deploy-collector';
import { CHAIN_SPECS, familyOf, type ChainKey } from '@/lib/config/rails';
import type { Db } from '@/lib/db';
import { formatAmount } from '@/lib/invoices/amount';
import { collectorRail, type RailLookup } from './collector-network';
import { PULL_OPS } from './pull-ops';
import { collectionSigningData } from './signing-data';

/** The approval the page suggests: this many periods, so the payer does not approve again every period (nor forever). */
export const APPROVE_PERIODS = 12n;

/**
 * What the payer is shown to turn automatic collection on (the checkout of a period's invoice, the customer portal):
 * the cap and period in plain words and exactly what the wallet signs, the same data as GET
 * /v1/subscriptions/{id}/collection, plus the two calls ready to send: each contract, function and calldata (the same
 * bytes on EVM and TRON: a TronLink TriggerSmartContract carries them), and an approve link where the family's wallets
 * open one (EIP-681; none on TRON). Addresses in the family's wire form (pull-ops.ts). No chain read: the page renders
 * without a node. `supported` false: this rail has no collector.
 */
function payerInputOf(chain: ChainKey) {
  const rule = addressRuleOf(chain);
  return { placeholder: rule.placeholder, pattern: rule.pattern.source.replace(/^\^|\$$/g, ''), title: `A ${rule.name} address: ${rule.shape}` };
}

export async function collectionOffer(db: Db, sub: Subscription, opts: { railLookup?: RailLookup } = {}) {
  const [[plan], [tenant], [kept]] = await Promise.all([
    db.select().from(plans).where(eq(plans.id, sub.planId)),
    db.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, sub.tenantId)),
    db.select().from(subscriptionCollections).where(eq(subscriptionCollections.subscriptionId, sub.id)),
  ]);
  // A fiat-priced plan has no automatic collection (its token amount changes each period; get-collection.ts).
  const net = plan!.priceCurrency ? null : collectorRail(opts.railLookup)(sub.mode, sub.chain, sub.token);
  const family = familyOf(sub.chain);
  const ops = PULL_OPS[family];
  const base = {
    subscriptionId: sub.id,
    merchantName: tenant!.name,
    amount: formatAmount(plan!.amount),
    token: sub.token,
    // "USDT (BEP-20) on BNB Smart Chain", as the checkout names a rail (lib/checkout/network-label.ts, not imported: lib/checkout uses lib/subscriptions).
    rail: `${sub.token} (${CHAIN_SPECS[sub.chain].tokenStandard}) on ${CHAIN_SPECS[sub.chain].name}`,
    /** Which wallets sign it (components/checkout/wallets.ts: an injected EVM wallet, TronLink). */
    family,
    on: kept?.status === 'active' ? { payer: net ? ops.wireAddress(kept.payer) : kept.payer } : null,
    // The payer's address field, from the rail family's rule (0x… on EVM, T… on TRON): the browser's first check.
    payerInput: payerInputOf(sub.chain),
    cancelReason: kept?.status === 'canceled' ? kept.cancelReason : null,
  };
  if (!net) return { ...base, supported: false as const };
  const s = collectionSigningData(sub, plan!, net);
  const approveUnits = BigInt(s.approve.amountPerPeriod) * APPROVE_PERIODS;
  const a = s.authorize;
  return {
    ...base,
    supported: true as const,
    /** The token takes an EIP-2612 permit (USDC): the payer may sign two messages instead of sending approve and authorize. */
    permit: Boolean(net.permit),
    periodDays: a.periodSeconds / 86_400,
    startsAt: new Date(Number(a.start) * 1000).toISOString(),
    signing: s,
    approvePeriods: Number(APPROVE_PERIODS),
    approveTotal: formatAmount(formatUnits(approveUnits, s.decimals)),
    approveUnits: approveUnits.toString(),
    /** EIP-681 on EVM (most wallets open it as the token's approve); null where the family's wallets have no such link. */
    approveUri: ops.approveLink({ token: s.tokenAddress, chainId: s.chainId, spender: s.approve.spender, units: approveUnits }),
    approveData: encodeFunctionData({
      abi: [
        {
          type: 'function',
          name: 'approve',
          stateMutability: 'nonpayable',
          inputs: [{ type: 'address' }, { type: 'uint256' }],
          outputs: [{ type: 'bool' }],
        },
      ],
      args: [ops.abiAddress(s.approve.spender), approveUnits],
    }),
    authorizeData: encodeFunctionData({
      abi: COLLECTOR_ABI,
      functionName: 'authorize',
      args: [a.subscriptionId as Hex, ops.abiAddress(a.token), BigInt(a.maxPerPeriod), BigInt(a.periodSeconds), BigInt(a.start)],
    }),
    revokeData: encodeFunctionData({ abi: COLLECTOR_ABI, functionName: 'revoke', args: [a.subscriptionId as Hex] }),
  };
}

export type CollectionOffer = Awaited<ReturnType<typeof collectionOffer>>;

/** The offer for the checkout of a period's invoice of a subscription still running; null for any other invoice. */
export async function checkoutCollectionOffer(db: Db, invoiceId: string, opts: { railLookup?: RailLookup } = {}) {
  const [row] = await db
    .select({ sub: subscriptions })
    .from(subscriptionPeriods)
    .innerJoin(subscriptions, eq(subscriptions.id, subscriptionPeriods.subscriptionId))
    .where(and(eq(subscriptionPeriods.invoiceId, invoiceId), ne(subscriptions.status, 'canceled')));
  return row ? collectionOffer(db, row.sub, opts) : null;
}
