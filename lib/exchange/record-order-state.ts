import { eq, sql } from 'drizzle-orm';
import { exchangeOrders, type ExchangeOrder } from '@/db/schema';
import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import { setInvoicePayinStatus } from '@/lib/invoices/set-payin-status';
import { setWithdrawalExchangeStatus } from '@/lib/withdrawals/set-exchange-status';
import type { FfOrder } from './types';

export interface TrackIntervals {
  /** Deposit seen: PENDING, EXCHANGE (and NEW withdrawal orders, which we fund at once: twice this while fresh). */
  movingMs: number;
  /** WITHDRAW: the exchange is paying out, DONE is next. */
  finishingMs: number;
  /** Waiting for a customer (NEW pay-in orders): at most this long between looks, and once at expiry. */
  waitingMs: number;
  /** A withdrawal order we funded that is still NEW after FRESH_WITHDRAWAL_MS: at most this long between looks, and once at expiry. */
  staleWithdrawalMs: number;
  /** EMERGENCY: waits for a person. */
  emergencyMs: number;
  /** EXPIRED: a late deposit turns it into EMERGENCY, so look now and then for a day. */
  expiredMs: number;
}

export const DEFAULT_INTERVALS: TrackIntervals = {
  movingMs: 5_000,
  finishingMs: 2_500,
  waitingMs: 10 * 60_000,
  staleWithdrawalMs: 2 * 60_000,
  emergencyMs: 5 * 60_000,
  expiredMs: 15 * 60_000,
};
/** Tracker priority: moving orders are polled first, waiting ones share what is left (see pickBatch). */
export const PRIORITY = { moving: 0, waiting: 1 } as const;
/** A withdrawal order counts as moving this long after we funded it. */
const FRESH_WITHDRAWAL_MS = 15 * 60_000;
const EXPIRED_WATCH_MS = 24 * 3600_000;
/** A pay-in invoice whose deposit the exchange has seen waits this long for the USDT. */
const CONVERSION_GRACE_MS = 2 * 3600_000;

/** What to do, for operators and tenants, per problem status. */
export const ATTENTION: Record<string, string> = {
  EXPIRED: 'No deposit arrived in time. Nothing to do unless funds were sent late: then the order turns EMERGENCY.',
  EMERGENCY:
    'The deposit was late, short, too large or outside limits. Decide at the exchange (emergency method): EXCHANGE continues at the market rate, REFUND returns the deposit minus the network fee to an address you give.',
};

/** Look again right after the order's expiry, if that comes before `maxMs`. */
const untilExpiry = (t: number, maxMs: number, expiration: number | null) =>
  new Date(Math.min(t + maxMs, Math.max(t + 1000, (expiration ?? Infinity) + 2000)));

/** The tracker's next look at an order after it answered `o`: state, when, and its priority. */
export function scheduleNextCheck(
  row: Pick<ExchangeOrder, 'purpose' | 'createdAt'>,
  o: Pick<FfOrder, 'status' | 'time'>,
  now: Date,
  iv: TrackIntervals = DEFAULT_INTERVALS,
) {
  const t = now.getTime();
  const expiration = o.time?.expiration ? o.time.expiration * 1000 : null;
  switch (o.status) {
    case 'DONE':
      return { state: 'final' as const, nextCheckAt: null, priority: PRIORITY.waiting };
    case 'WITHDRAW':
      // Paying out: DONE is next, so look sooner.
      return { state: 'open' as const, nextCheckAt: new Date(t + iv.finishingMs), priority: PRIORITY.moving };
    case 'PENDING':
    case 'EXCHANGE':
      return { state: 'open' as const, nextCheckAt: new Date(t + iv.movingMs), priority: PRIORITY.moving };
    case 'NEW':
      if (row.purpose === 'withdrawal') {
        // Funded by us at creation: it should move soon, so it counts as moving for a quarter of an hour; after
        // that something is wrong (it will expire or turn EMERGENCY): a look every few minutes and at its expiry.
        if (t - row.createdAt.getTime() < FRESH_WITHDRAWAL_MS)
          return { state: 'open' as const, nextCheckAt: new Date(t + iv.movingMs * 2), priority: PRIORITY.moving };
        return { state: 'open' as const, nextCheckAt: untilExpiry(t, iv.staleWithdrawalMs, expiration), priority: PRIORITY.waiting };
      }
      return { state: 'open' as const, nextCheckAt: untilExpiry(t, iv.waitingMs, expiration), priority: PRIORITY.waiting };
    case 'EMERGENCY':
      return { state: 'open' as const, nextCheckAt: new Date(t + iv.emergencyMs), priority: PRIORITY.waiting };
    case 'EXPIRED':
    default:
      if (expiration !== null && t > expiration + EXPIRED_WATCH_MS) return { state: 'final' as const, nextCheckAt: null, priority: PRIORITY.waiting };
      return { state: 'open' as const, nextCheckAt: new Date(t + iv.expiredMs), priority: PRIORITY.waiting };
  }
}

/**
 * Records what the exchange says about an order: on the order row (with the
 * next look), on its withdrawal (metadata.exchangeStatus) and on its pay-in
 * invoice (payinStatus; an EXPIRED order expires the unpaid invoice now, a
 * seen deposit keeps the invoice open while the exchange converts). One transaction.
 */
export async function recordOrderState(db: Db, row: ExchangeOrder, o: FfOrder, opts: { now?: Date; intervals?: TrackIntervals } = {}) {
  const now = opts.now ?? new Date();
  const next = scheduleNextCheck(row, o, now, opts.intervals ?? DEFAULT_INTERVALS);
  const changed = row.status !== o.status;
  await db.transaction(async (tx) => {
    await tx
      .update(exchangeOrders)
      .set({
        status: o.status,
        lastOrder: o as unknown as Record<string, unknown>,
        toAmount: String(o.to.amount),
        state: row.purpose === 'manual' ? row.state : next.state,
        nextCheckAt: row.purpose === 'manual' ? null : next.nextCheckAt,
        priority: next.priority,
        checks: sql`${exchangeOrders.checks} + 1`,
        recordedAt: next.state === 'final' ? sql`coalesce(${exchangeOrders.recordedAt}, ${now.toISOString()}::timestamptz)` : undefined,
        updatedAt: now,
      })
      .where(eq(exchangeOrders.id, row.id));
    if (!changed) return;
    if (row.withdrawalId) await setWithdrawalExchangeStatus(tx, row.withdrawalId, o.status, now);
    if (row.invoiceId) {
      // EXPIRED: the unpaid invoice expires now; a seen deposit keeps it open while the exchange converts.
      const moving = ['PENDING', 'EXCHANGE', 'WITHDRAW', 'DONE'].includes(o.status);
      await setInvoicePayinStatus(
        tx,
        row.invoiceId,
        o.status,
        {
          expireBy: o.status === 'EXPIRED' ? now : undefined,
          keepOpenUntil: moving ? new Date(now.getTime() + CONVERSION_GRACE_MS) : undefined,
        },
        now,
      );
    }
  });
  if (changed && (o.status === 'EXPIRED' || o.status === 'EMERGENCY')) {
    log.warn('exchange order needs attention', {
      exchangeOrder: row.id,
      exchangeId: o.id,
      status: o.status,
      reasons: o.emergency?.status?.join(',') ?? '',
      withdrawal: row.withdrawalId ?? undefined,
      invoice: row.invoiceId ?? undefined,
      todo: ATTENTION[o.status],
    });
  }
}
