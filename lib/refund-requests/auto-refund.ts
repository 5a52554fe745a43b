import { eq, sql } from 'drizzle-orm';
import { getAddress } from 'viem';
import { refundRequests, tenants } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import { getInvoiceOrThrow } from '@/lib/invoices/get-invoice-or-throw';
import { log } from '@/lib/log';
import { Decimal } from '@/lib/money';
import { createRefund } from '@/lib/refunds/create-refund';
import { PAID, refundTerms } from '@/lib/refunds/refund-terms';
import { prepareAutoRefundControls } from '@/lib/withdrawal-controls/enforce-withdrawal-controls';
import { POLICY_ACTOR } from './decided-by';
import { getRefundRequestOrThrow } from './get-refund-request-or-throw';
import { markDecided } from './mark-decided';

/** pendingReason while the overpayment is not confirmed and credited yet (only settled money is refunded). */
export const AWAITING_SETTLEMENT = 'awaiting_settlement';

/**
 * The auto-refund policy on one proposal: when its tenant has the policy on,
 * its invoice was paid and the overpayment has settled, refund that
 * overpayment to the payer's address and mark the proposal APPROVED by
 * `policy`, in one transaction (invoice, then proposal locked, as approvals
 * do). Otherwise nothing changes but `pendingReason` (not settled yet; or a
 * control's refusal such as the 24 h limit, left for the merchant to decide).
 * Unpaid invoices' late or partial payments always wait for the merchant.
 */
export async function autoRefund(db: Db, requestId: string): Promise<'refunded' | 'waiting' | 'skipped'> {
  const [first] = await db.select().from(refundRequests).where(eq(refundRequests.id, requestId));
  if (!first || first.status !== 'PENDING') return 'skipped';
  const [tenant] = await db.select().from(tenants).where(eq(tenants.id, first.tenantId));
  if (!tenant?.autoRefundOverpayments || tenant.status !== 'active') return 'skipped';
  const owner = { tenantId: tenant.id, mode: first.mode, tenant: { withdrawalFeeRate: tenant.withdrawalFeeRate } };
  return db.transaction(async (tx) => {
    const invoice = await getInvoiceOrThrow(tx, { id: first.invoiceId, tenantId: owner.tenantId, mode: owner.mode }, { forUpdate: true });
    const r = await getRefundRequestOrThrow(tx, { id: requestId, tenantId: owner.tenantId, mode: owner.mode }, { forUpdate: true });
    if (r.status !== 'PENDING' || !PAID.has(invoice.status)) return 'skipped';
    const wait = async (reason: string) => {
      if (r.pendingReason !== reason) await tx.update(refundRequests).set({ pendingReason: reason }).where(eq(refundRequests.id, r.id));
      return 'waiting' as const;
    };
    const terms = await refundTerms(tx, invoice);
    // A claim link's request refunds what the merchant's link promised; any other, the overpayment.
    const amount = r.source === 'claim_link' ? new Decimal(r.amount) : terms.byDefault;
    if (amount.lt('0.01') || terms.refundable.lt(amount)) return wait(AWAITING_SETTLEMENT);
    let refundId: string;
    try {
      const refund = await createRefund(
        tx,
        owner,
        invoice.id,
        { destinationAddress: getAddress(r.destinationAddress), amount: amount.toFixed(2) },
        POLICY_ACTOR,
        prepareAutoRefundControls,
      );
      refundId = refund.id;
    } catch (err) {
      // A refusal (balance, 24 h limit...) leaves the proposal to the merchant, with the reason shown to them.
      if (err instanceof ApiError && err.status < 500) return wait(err.code);
      throw err;
    }
    await markDecided(tx, r, POLICY_ACTOR, { status: 'APPROVED', withdrawalId: refundId, declineReason: null });
    return 'refunded';
  });
}

/**
 * The auto-refund job: proposals of tenants whose policy is on, on invoices
 * that were paid (so what the payer asks back is an overpayment), oldest
 * first. Each is tried on its own; one failing does not stop the others.
 */
export async function runAutoRefunds(db: Db) {
  const due = rowsOf<{ id: string }>(
    await db.execute(sql`
      select r.id from refund_requests r
        join tenants t on t.id = r.tenant_id and t.auto_refund_overpayments
        join invoices i on i.id = r.invoice_id
                       and i.status in ('DETECTED', 'OVERPAID', 'CONFIRMED', 'PROCESSING_PAYOUT', 'PAID_OUT')
       where r.status = 'PENDING'
       order by r.created_at
       limit 100`),
  );
  const counts = { refunded: 0, waiting: 0, skipped: 0 };
  for (const { id } of due) {
    try {
      counts[await autoRefund(db, id)]++;
    } catch (err) {
      log.error('auto refund failed', { refundRequestId: id, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return counts;
}
