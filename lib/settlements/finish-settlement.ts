import { and, eq, inArray } from 'drizzle-orm';
import { settlements, type Invoice, type Settlement } from '@/db/schema';
import type { Db } from '@/lib/db';
import { postLedgerEntries } from '@/lib/ledger/post-entry';
import { pullFeeEntries } from '@/lib/subscriptions/collect/pull-fee-entries';
import { Decimal } from '@/lib/money';
import { emitInvoiceEvent } from '@/lib/invoices/emit-invoice-event';
import { finishHeldPaymentSettlement } from './finish-held-payment-settlement';
import { lockInvoice, updateInvoice } from '@/lib/invoices/transitions';
import { requireFinalTransfers } from './early-sweep';

const credit = async (tx: Db, s: Settlement) =>
  postLedgerEntries(tx, [
    {
      tenantId: s.tenantId,
      mode: s.mode,
      // The asset swept: a USDC payment credits the USDC balance, whichever network it came on.
      currency: s.token,
      amount: s.netAmount,
      kind: 'invoice_credit',
      referenceType: 'settlement',
      referenceId: s.id,
    },
    // A subscription period pulled automatically pays the pull's gas from the money it brought.
    ...(await pullFeeEntries(tx, s)),
  ]);

/**
 * An early sweep's invoice may still be DETECTED/OVERPAID (the watcher confirms on its next pass) or CONFIRMED:
 * its custody transfer is solidified, so its payments are (they are below it, requireFinalTransfers), and the
 * invoice takes the steps it skipped, with their events, before PAID_OUT: the payer's statuses keep their order.
 */
async function catchUp(tx: Db, invoice: Invoice): Promise<Invoice> {
  if (invoice.status === 'DETECTED' || invoice.status === 'OVERPAID') {
    invoice = await updateInvoice(tx, invoice.id, { status: 'CONFIRMED' });
    await emitInvoiceEvent(tx, invoice, 'invoice.confirmed');
  }
  if (invoice.status === 'CONFIRMED') {
    invoice = await updateInvoice(tx, invoice.id, { status: 'PROCESSING_PAYOUT' });
    await emitInvoiceEvent(tx, invoice, 'invoice.processing_payout');
  }
  return invoice;
}

/** Counted towards the invoice (its own payments; a held payment's settlement never is). */
const ofInvoice = (s: Settlement) => s.kind === 'invoice' || s.kind === 'extra';

/**
 * The one transaction after the on-chain steps: credit the tenant's balance
 * with the net amount (ledger entry keyed by the settlement, so never twice),
 * mark the settlement completed, add to the invoice's credited and fee totals,
 * move a payout invoice to PAID_OUT, and write invoice.paid_out (a held
 * payment's settlement instead: finishHeldPaymentSettlement). The earlier
 * deferred settlements the sweep carried are credited here too, if they were not.
 *
 * With `sweepDeferred` nothing moved on chain (plan-sweep.ts): money is credited only once it reaches the hot
 * wallet (issue 42 §2), so the settlement completes `uncollected`, without a credit: a payout invoice still
 * becomes PAID_OUT (the payer's part is done), with the amount shown as `amountUncollected`.
 */
export async function finishSettlement(db: Db, settlementId: string, opts: { sweepDeferred?: boolean } = {}) {
  return db.transaction(async (tx) => {
    const [s] = await tx.select().from(settlements).where(eq(settlements.id, settlementId)).for('update');
    if (!s) throw new Error(`settlement ${settlementId} not found`);
    if (s.status === 'completed') return s;
    const uncollected = opts.sweepDeferred === true;
    // A send-back pays its sender from the hot wallet: it must have been swept (refundHeldPayment refuses it otherwise).
    if (uncollected && s.kind === 'refund') throw new Error(`settlement ${s.id}: a send-back cannot be left on its deposit address`);
    let invoice = await lockInvoice(tx, s.invoiceId);
    // Started before its payments were irreversible (TRON): credited only if they still are on the chain.
    await requireFinalTransfers(tx, s);
    if (s.sweptEarly && s.kind === 'invoice') invoice = await catchUp(tx, invoice);
    if (!uncollected) await credit(tx, s);
    const [done] = await tx
      .update(settlements)
      .set({ status: 'completed', completedAt: new Date(), lockedUntil: null, lastError: null, sweepDeferred: uncollected, uncollected })
      .where(eq(settlements.id, s.id))
      .returning();
    // The earlier deferred settlements whose tokens this sweep moved: those not credited yet are credited now.
    const carriedIds = s.gasPlan?.carried?.ids ?? [];
    const carried = carriedIds.length
      ? await tx
          .select()
          .from(settlements)
          .where(and(inArray(settlements.id, carriedIds), eq(settlements.uncollected, true)))
          .for('update')
      : [];
    for (const c of carried) await credit(tx, c);
    if (carriedIds.length) await tx.update(settlements).set({ carriedBy: s.id, uncollected: false }).where(inArray(settlements.id, carriedIds));
    const collected = carried.filter(ofInvoice);
    const sum = (rows: Settlement[], k: 'netAmount' | 'feeAmount' | 'amount') => rows.reduce((t, r) => t.add(r[k]), new Decimal(0));
    // A held payment's own sweep: credited (and for a refund, sent back), never counted towards the invoice.
    if (!ofInvoice(s)) {
      if (!uncollected) await finishHeldPaymentSettlement(tx, s);
      if (collected.length === 0) return done!;
    }
    const own = ofInvoice(s) ? [s] : [];
    const payout = s.kind === 'invoice' && (invoice.status === 'PROCESSING_PAYOUT' || invoice.status === 'FAILED');
    const row = await updateInvoice(tx, invoice.id, {
      amountCredited: new Decimal(invoice.amountCredited)
        .add(sum(collected, 'netAmount'))
        .add(uncollected ? 0 : sum(own, 'netAmount'))
        .toFixed(),
      feeAmount: new Decimal(invoice.feeAmount)
        .add(sum(collected, 'feeAmount'))
        .add(uncollected ? 0 : sum(own, 'feeAmount'))
        .toFixed(),
      amountUncollected: Decimal.max(
        0,
        new Decimal(invoice.amountUncollected).minus(sum(collected, 'amount')).add(uncollected ? sum(own, 'amount') : 0),
      ).toFixed(),
      ...(payout ? { status: 'PAID_OUT' as const } : {}),
    });
    await emitInvoiceEvent(tx, row, 'invoice.paid_out');
    return done!;
  });
}
