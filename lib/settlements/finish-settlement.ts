import { eq, inArray } from 'drizzle-orm';
import { settlements } from '@/db/schema';
import type { Db } from '@/lib/db';
import { postLedgerEntry } from '@/lib/ledger/post-entry';
import { Decimal } from '@/lib/money';
import { emitInvoiceEvent } from '@/lib/invoices/emit-invoice-event';
import { finishHeldPaymentSettlement } from './finish-held-payment-settlement';
import { lockInvoice, updateInvoice } from '@/lib/invoices/transitions';

/**
 * The one transaction after the on-chain steps: credit the tenant's balance
 * with the net amount (ledger entry keyed by the settlement, so never twice),
 * mark the settlement completed, add to the invoice's credited and fee totals,
 * move a payout invoice to PAID_OUT, and write invoice.paid_out (a held
 * payment's settlement instead: finishHeldPaymentSettlement). With
 * sweepDeferred (dust, see plan-sweep.ts) nothing moved on chain yet.
 */
export async function finishSettlement(db: Db, settlementId: string, opts: { sweepDeferred?: boolean } = {}) {
  return db.transaction(async (tx) => {
    const [s] = await tx.select().from(settlements).where(eq(settlements.id, settlementId)).for('update');
    if (!s) throw new Error(`settlement ${settlementId} not found`);
    if (s.status === 'completed') return s;
    const invoice = await lockInvoice(tx, s.invoiceId);
    await postLedgerEntry(tx, {
      tenantId: s.tenantId,
      mode: s.mode,
      // The asset swept: a USDC payment credits the USDC balance, whichever network it came on.
      currency: s.token,
      amount: s.netAmount,
      kind: 'invoice_credit',
      referenceType: 'settlement',
      referenceId: s.id,
    });
    const [done] = await tx
      .update(settlements)
      .set({ status: 'completed', completedAt: new Date(), lockedUntil: null, lastError: null, sweepDeferred: opts.sweepDeferred ?? false })
      .where(eq(settlements.id, s.id))
      .returning();
    // The earlier dust settlements whose tokens this sweep moved.
    const carried = s.gasPlan?.carried?.ids ?? [];
    if (carried.length) await tx.update(settlements).set({ carriedBy: s.id }).where(inArray(settlements.id, carried));
    // A held payment's own sweep: credited (and for a refund, sent back), never counted towards the invoice.
    if (s.kind === 'held_credit' || s.kind === 'refund') {
      await finishHeldPaymentSettlement(tx, s);
      return done!;
    }
    const payout = s.kind === 'invoice' && (invoice.status === 'PROCESSING_PAYOUT' || invoice.status === 'FAILED');
    const row = await updateInvoice(tx, invoice.id, {
      amountCredited: new Decimal(invoice.amountCredited).add(s.netAmount).toFixed(),
      feeAmount: new Decimal(invoice.feeAmount).add(s.feeAmount).toFixed(),
      ...(payout ? { status: 'PAID_OUT' as const } : {}),
    });
    await emitInvoiceEvent(tx, row, 'invoice.paid_out');
    return done!;
  });
}
