import { desc, eq } from 'drizzle-orm';
import { formatUnits, parseUnits, type Address } from 'viem';
import { collectionPulls, plans, subscriptionCollections } from '@/db/schema';
import { ApiError } from '@/lib/api/errors';
import { publicClient } from '@/lib/chain/clients';
import { COLLECTOR_ABI } from '@/lib/chain/evm/collector/deploy-collector';
import type { Db } from '@/lib/db';
import { formatAmount } from '@/lib/invoices/amount';
import { log } from '@/lib/log';
import type { Mode } from '@/lib/mode';
import { getSubscriptionOrThrow } from '../load-subscription';
import { readCollectionState } from '../read-collection-state';
import type { SubscriptionCollectionView } from '../schemas';
import { readPermitBlock } from './permit-block';
import { collectorRail, periodSecondsOf, permissionIdOf, type CollectorNetwork, type RailLookup } from './collector-network';

type State = SubscriptionCollectionView['state'];
type Read = { state: State; allowance: string | null; balance: string | null };

/** A read that fails is a 503, never an answer. */
async function unreadable<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    log.warn('collection state unreadable', { error: err instanceof Error ? err.message : String(err) });
    throw new ApiError('service_unavailable', 'The chain could not be read: the collection state is unknown, try again.');
  }
}

/** The chain's verdict on a kept permission now. */
function readState(net: CollectorNetwork, payer: Address, permissionId: `0x${string}`, amount: bigint): Promise<Read> {
  return unreadable(async () => {
    const s = await readCollectionState(net, { subscriptionId: permissionId, payer, token: net.tokenAddress, amount });
    const seen = { allowance: formatUnits(s.allowance, net.decimals), balance: formatUnits(s.balance, net.decimals) };
    if (s.ready) return { state: 'authorized', ...seen };
    if (s.reason !== 'not_authorized') return { state: s.reason, ...seen };
    // Nothing available: revoked, this period's cap used (something was pulled), or not started yet (nothing ever pulled).
    const perm = (await publicClient(net.rpcUrl).readContract({
      address: net.collectorAddress,
      abi: COLLECTOR_ABI,
      functionName: 'permissions',
      args: [payer, permissionId],
    })) as readonly unknown[];
    if (perm[6] === true) return { state: 'revoked', ...seen };
    // A zero allowance says more to the payer than a used cap: the next period will not be pulled either.
    if (s.allowance === 0n) return { state: 'allowance_revoked', ...seen };
    return { state: BigInt(perm[4] as bigint) > 0n ? 'period_collected' : 'authorized', ...seen };
  });
}

/**
 * GET /v1/subscriptions/:id/collection: what the payer's wallet must sign to allow automatic collection (the
 * collector, the token's approve, the authorize arguments) and the state read from the chain now, with the last
 * attempts. Another tenant's or mode's subscription is a 404 (getSubscriptionOrThrow).
 */
export async function getCollection(
  db: Db,
  where: { id: string; tenantId: string; mode: Mode },
  opts: { railLookup?: RailLookup; payer?: string; now?: Date } = {},
): Promise<SubscriptionCollectionView> {
  const sub = await getSubscriptionOrThrow(db, where);
  const [[plan], [kept], pulls] = await Promise.all([
    db.select().from(plans).where(eq(plans.id, sub.planId)),
    db.select().from(subscriptionCollections).where(eq(subscriptionCollections.subscriptionId, sub.id)),
    db.select().from(collectionPulls).where(eq(collectionPulls.subscriptionId, sub.id)).orderBy(desc(collectionPulls.periodStart)).limit(5),
  ]);
  // A fiat-priced plan's amount in token changes each period; the on-chain cap cannot follow it (not built).
  const net = plan!.priceCurrency ? null : collectorRail(opts.railLookup)(sub.mode, sub.chain, sub.token);
  const attempts = pulls.map((p) => ({
    periodStart: p.periodStart.toISOString(),
    invoiceId: p.invoiceId,
    status: p.status,
    reason: p.reason,
    amount: formatAmount(p.amount),
    txHash: p.txHash,
    networkFee: p.networkFee === null ? null : formatAmount(p.networkFee),
    createdAt: p.createdAt.toISOString(),
  }));
  const base = {
    subscriptionId: sub.id,
    chain: sub.chain,
    token: sub.token,
    payer: kept?.payer ?? null,
    cancelReason: kept?.cancelReason ?? null,
    attempts,
  };
  if (!net)
    return {
      ...base,
      state: 'unsupported',
      chainId: null,
      tokenAddress: null,
      decimals: null,
      collectorAddress: null,
      approve: null,
      authorize: null,
      permit: null,
      allowance: null,
      balance: null,
    };
  const amount = parseUnits(plan!.amount, net.decimals);
  const permissionId = permissionIdOf(sub.id);
  const authorize = {
    subscriptionId: permissionId,
    token: net.tokenAddress.toLowerCase() as Address,
    maxPerPeriod: amount,
    periodSeconds: periodSecondsOf(plan!),
    // Periods billed from the set-up on are pulled: the next one starts at the current period's end.
    start: Math.floor(sub.currentPeriodEnd.getTime() / 1000),
  };
  const permit = net.permit
    ? await unreadable(() =>
        readPermitBlock(net, {
          terms: { ...authorize, periodSeconds: BigInt(authorize.periodSeconds), start: BigInt(authorize.start) },
          payer: opts.payer as Address | undefined,
          now: opts.now ?? new Date(),
        }),
      )
    : null;
  const read: Read = !kept
    ? { state: 'not_set_up', allowance: null, balance: null }
    : kept.status === 'canceled'
      ? { state: 'canceled', allowance: null, balance: null }
      : await readState(net, kept.payer as Address, permissionId, amount);
  return {
    ...base,
    ...read,
    chainId: net.chainId,
    tokenAddress: net.tokenAddress.toLowerCase(),
    decimals: net.decimals,
    collectorAddress: net.collectorAddress.toLowerCase(),
    approve: { spender: net.collectorAddress.toLowerCase(), amountPerPeriod: amount.toString() },
    authorize: { ...authorize, maxPerPeriod: amount.toString(), start: String(authorize.start) },
    permit,
  };
}
