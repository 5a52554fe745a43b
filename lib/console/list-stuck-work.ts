import { and, desc, eq, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import { exchangeOrders, invoices, settlements, tenants, withdrawals } from '@/db/schema';
import type { Db } from '@/lib/db';
import { exchangeAdvice, readEmergency } from '@/lib/exchange/exchange-advice';
import { chainGone } from '@/lib/invoices/chain-gone';

/** A payout or send older than this without progress is shown as stuck. */
export const STUCK_AFTER_MINUTES = 30;
const LIMIT = 100;

/** Work that needs a person, across tenants: failed or slow payouts, waiting or slow withdrawals, exchange orders in EXPIRED/EMERGENCY. */
export async function listStuckWork(db: Db, now = new Date(), stuckAfterMinutes = STUCK_AFTER_MINUTES) {
  const before = new Date(now.getTime() - stuckAfterMinutes * 60_000);
  const lastSettlement = sql<
    string | null
  >`(select s.last_error from ${settlements} s where s.invoice_id = ${invoices.id} order by s.created_at desc limit 1)`;
  const failedSettlement = sql<
    string | null
  >`(select s.id from ${settlements} s where s.invoice_id = ${invoices.id} and s.status = 'failed' order by s.created_at desc limit 1)`;
  const [inv, wd, exo] = await Promise.all([
    db
      .select({
        id: invoices.id,
        tenantId: invoices.tenantId,
        tenantName: tenants.name,
        mode: invoices.mode,
        status: invoices.status,
        amount: invoices.amountExpected,
        token: invoices.token,
        chain: invoices.chain,
        chainId: invoices.chainId,
        received: invoices.amountReceived,
        updatedAt: invoices.updatedAt,
        lastError: lastSettlement,
        failedSettlementId: failedSettlement,
      })
      .from(invoices)
      .innerJoin(tenants, eq(tenants.id, invoices.tenantId))
      .where(or(eq(invoices.status, 'FAILED'), and(eq(invoices.status, 'PROCESSING_PAYOUT'), lt(invoices.updatedAt, before))))
      .orderBy(desc(invoices.updatedAt))
      .limit(LIMIT),
    db
      .select({
        id: withdrawals.id,
        tenantId: withdrawals.tenantId,
        tenantName: tenants.name,
        mode: withdrawals.mode,
        status: withdrawals.status,
        amount: withdrawals.amount,
        token: withdrawals.token,
        pendingReason: withdrawals.pendingReason,
        txHash: withdrawals.txHash,
        sendAttempts: withdrawals.sendAttempts,
        nextAttemptAt: withdrawals.nextAttemptAt,
        broadcastAt: withdrawals.broadcastAt,
        updatedAt: withdrawals.updatedAt,
      })
      .from(withdrawals)
      .innerJoin(tenants, eq(tenants.id, withdrawals.tenantId))
      .where(
        or(
          // A withdrawal awaiting the owner's approval waits for the merchant, not for support.
          and(eq(withdrawals.status, 'PENDING'), isNotNull(withdrawals.pendingReason), sql`${withdrawals.pendingReason} <> 'awaiting_approval'`),
          and(
            eq(withdrawals.status, 'PROCESSING'),
            sql`coalesce(${withdrawals.broadcastAt}, ${withdrawals.updatedAt}) < ${before.toISOString()}::timestamptz`,
          ),
        ),
      )
      .orderBy(withdrawals.createdAt)
      .limit(LIMIT),
    db
      .select({
        id: exchangeOrders.id,
        tenantId: exchangeOrders.tenantId,
        tenantName: tenants.name,
        mode: exchangeOrders.mode,
        status: exchangeOrders.status,
        purpose: exchangeOrders.purpose,
        exchangeId: exchangeOrders.exchangeId,
        withdrawalId: exchangeOrders.withdrawalId,
        invoiceId: exchangeOrders.invoiceId,
        fromCcy: exchangeOrders.fromCcy,
        toCcy: exchangeOrders.toCcy,
        fromAmount: exchangeOrders.fromAmount,
        toAmount: exchangeOrders.toAmount,
        updatedAt: exchangeOrders.updatedAt,
        emergency: sql`${exchangeOrders.lastOrder}->'emergency'`.mapWith(exchangeOrders.lastOrder),
      })
      .from(exchangeOrders)
      .innerJoin(tenants, eq(tenants.id, exchangeOrders.tenantId))
      .where(and(inArray(exchangeOrders.status, ['EXPIRED', 'EMERGENCY']), eq(exchangeOrders.state, 'open')))
      .orderBy(desc(exchangeOrders.updatedAt))
      .limit(LIMIT),
  ]);
  return {
    // An earlier run's local chain (chainGone): nothing watches it and a retry cannot reach it; marked, not retried.
    invoices: inv.map((i) => ({ ...i, notWatched: chainGone(i) })),
    withdrawals: wd,
    exchangeOrders: exo.map(({ emergency, ...o }) => ({ ...o, advice: exchangeAdvice({ ...o, ...readEmergency(emergency) }) })),
    stuckAfterMinutes,
  };
}
