import { and, eq, gt, gte, isNull, sql } from 'drizzle-orm';
import type { Hex } from 'viem';
import { collectionPulls, invoices, subscriptionCollections, subscriptionPeriods, subscriptions, type CollectionPull } from '@/db/schema';
import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import { Decimal } from '@/lib/money';
import { collectorRail, type RailLookup } from './collector-network';
import { collectPeriod, type CollectHooks, type CollectOutcome, type PeriodToCollect } from './collect-period';
import { fallBack } from './fall-back';
import { resumeSetUps } from './resume-set-ups';

export interface CollectionOptions {
  /** The clock: tests move it instead of sleeping. */
  now?: Date;
  railLookup?: RailLookup;
  /** Only this tenant's subscriptions (tests share one database). */
  tenantId?: string;
  hooks?: CollectHooks;
  limit?: number;
}

const candidate = {
  subscriptionId: subscriptionPeriods.subscriptionId,
  periodStart: subscriptionPeriods.periodStart,
  invoiceId: subscriptionPeriods.invoiceId,
  amount: invoices.amountExpected,
  depositAddress: invoices.depositAddress,
  chainId: invoices.chainId,
  mode: subscriptions.mode,
  chain: subscriptions.chain,
  token: subscriptions.token,
  payer: subscriptionCollections.payer,
  permissionId: subscriptionCollections.permissionId,
};

/**
 * What is due at `now`: recorded pulls not finished (resumed first: they are only ever rebroadcast), then the current
 * periods of subscriptions with automatic collection whose invoice is unpaid and has no attempt yet. Periods billed
 * before collection was set up were e-mailed already and are left to the customer.
 */
async function due(db: Db, now: Date, opts: CollectionOptions) {
  const tenant = opts.tenantId ? eq(subscriptions.tenantId, opts.tenantId) : undefined;
  const base = () =>
    db
      .select({ ...candidate, pull: collectionPulls })
      .from(subscriptionPeriods)
      .innerJoin(subscriptions, eq(subscriptions.id, subscriptionPeriods.subscriptionId))
      .innerJoin(subscriptionCollections, eq(subscriptionCollections.subscriptionId, subscriptions.id))
      .innerJoin(invoices, eq(invoices.id, subscriptionPeriods.invoiceId))
      .leftJoin(
        collectionPulls,
        and(eq(collectionPulls.subscriptionId, subscriptionPeriods.subscriptionId), eq(collectionPulls.periodStart, subscriptionPeriods.periodStart)),
      );
  const resumed = await base()
    .where(and(eq(collectionPulls.status, 'signed'), tenant))
    .limit(opts.limit ?? 100);
  const fresh = await base()
    .where(
      and(
        isNull(collectionPulls.id),
        eq(subscriptionCollections.status, 'active'),
        eq(subscriptions.currentPeriodStart, subscriptionPeriods.periodStart),
        sql`${subscriptions.status} <> 'canceled'`,
        eq(invoices.status, 'PENDING'),
        gt(invoices.expiresAt, now),
        gte(subscriptionPeriods.createdAt, subscriptionCollections.createdAt),
        tenant,
      ),
    )
    .limit(opts.limit ?? 100);
  return [...resumed, ...fresh];
}

/**
 * The automatic collection job (issue 48 §2), EVM and TRON rails: each due period pulled from the payer's wallet into its
 * invoice's deposit address through the collector, or e-mailed instead (lib/subscriptions/collect/collect-period.ts).
 * Exactly once per period: the attempt row's unique index (subscription, period) is written before any broadcast, a
 * recorded pull is only resent, and the contract itself refuses a second pull over the period's cap. A period whose
 * read or broadcast fails stays as it is and is retried by the next run; the others go on.
 */
export async function runCollection(db: Db, opts: CollectionOptions = {}) {
  const now = opts.now ?? new Date();
  const rail = collectorRail(opts.railLookup);
  const counts: Record<CollectOutcome | 'failed' | 'set_up', number> = { pulled: 0, fell_back: 0, raced: 0, in_flight: 0, failed: 0, set_up: 0 };
  // Set-ups by signature first: each holds a gas wallet nonce the pulls signed after it would wait behind.
  counts.set_up = await resumeSetUps(db, opts);
  for (const c of await due(db, now, opts)) {
    const p: PeriodToCollect = {
      subscriptionId: c.subscriptionId,
      periodStart: c.periodStart,
      invoiceId: c.invoiceId,
      amount: new Decimal(c.amount).toFixed(),
      depositAddress: c.depositAddress,
      chainId: c.chainId,
      payer: c.payer,
      permissionId: c.permissionId as Hex,
    };
    try {
      const net = rail(c.mode, c.chain, c.token);
      // The rail lost its collector (configuration): the held invoice goes out as e-mail; a recorded pull waits for it.
      if (!net) {
        if (!c.pull) counts[(await fallBack(db, p, 'no collector', now)) ? 'fell_back' : 'raced']++;
        continue;
      }
      counts[await collectPeriod(db, net, p, now, (c.pull as CollectionPull | null) ?? null, opts.hooks)]++;
    } catch (err) {
      counts.failed++;
      const message = err instanceof Error ? err.message : String(err);
      // A recorded pull keeps the error of its last resume (a fresh attempt may have recorded one before failing).
      await db
        .update(collectionPulls)
        .set({ lastError: message.slice(0, 500) })
        .where(
          and(
            eq(collectionPulls.subscriptionId, c.subscriptionId),
            eq(collectionPulls.periodStart, c.periodStart),
            eq(collectionPulls.status, 'signed'),
          ),
        );
      log.error('subscription collection failed', { subscriptionId: c.subscriptionId, error: message });
    }
  }
  return counts;
}
