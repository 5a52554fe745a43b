import { eq, sql } from 'drizzle-orm';
import { formatAddress } from '@/lib/chain/deposit-keys';
import { refundClaims, refundRequests, tenants, type RefundRequest } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import { getInvoiceOrThrow } from '@/lib/invoices/get-invoice-or-throw';
import { log } from '@/lib/log';
import { Decimal } from '@/lib/money';
import { createRefund } from '@/lib/refunds/create-refund';
import { givebackTerms } from '@/lib/refunds/giveback-terms';
import { prepareAutoRefundControls } from '@/lib/withdrawal-controls/enforce-withdrawal-controls';
import { autoRefundRefusal, type LinkContext } from './auto-refund-rules';
import { POLICY_ACTOR } from './decided-by';
import { getRefundRequestOrThrow } from './get-refund-request-or-throw';
import { markDecided } from './mark-decided';

/** pendingReason while the overpayment is not confirmed and credited yet (only settled money is refunded). */
export const AWAITING_SETTLEMENT = 'awaiting_settlement';

/** A claim link's request: who made its link and where it pays (auto-refund-rules.ts judges them). */
async function linkOf(tx: Db, r: RefundRequest): Promise<LinkContext | undefined> {
  if (r.source !== 'claim_link') return undefined;
  const [c] = r.claimId ? await tx.select({ createdBy: refundClaims.createdBy }).from(refundClaims).where(eq(refundClaims.id, r.claimId)) : [];
  return { createdBy: c?.createdBy ?? null, destination: r.destinationAddress, owner: { tenantId: r.tenantId, mode: r.mode } };
}

export type AutoRefundOutcome = 'refunded' | 'waiting' | 'held' | 'skipped';

/**
 * The auto-refund policy on one proposal whose delay has passed (`autoRefundAfter` set and not in the future):
 * refunds the settled overpayment to the payer's address and marks the proposal APPROVED by `policy`, in one
 * transaction (invoice, then proposal locked, as approvals do; then the tenant shared, so a switch-off commits
 * before or after, never during). Every rule is checked again here (auto-refund-rules.ts): a rule that fails
 * holds the proposal for the merchant for good ('held': pendingReason set, autoRefundAfter cleared); not settled
 * yet, or a control's refusal (the 24 h limit...), waits with the reason ('waiting'), retried by the job.
 */
export async function autoRefund(db: Db, requestId: string, now = new Date()): Promise<AutoRefundOutcome> {
  const [first] = await db.select().from(refundRequests).where(eq(refundRequests.id, requestId));
  if (!first || first.status !== 'PENDING' || !first.autoRefundAfter || first.autoRefundAfter > now) return 'skipped';
  return db.transaction(async (tx) => {
    const invoice = await getInvoiceOrThrow(tx, { id: first.invoiceId, tenantId: first.tenantId, mode: first.mode }, { forUpdate: true });
    const r = await getRefundRequestOrThrow(tx, { id: requestId, tenantId: first.tenantId, mode: first.mode }, { forUpdate: true });
    if (r.status !== 'PENDING' || !r.autoRefundAfter || r.autoRefundAfter > now) return 'skipped';
    const [tenant] = await tx.select().from(tenants).where(eq(tenants.id, r.tenantId)).for('share');
    if (!tenant || tenant.status !== 'active') return 'skipped';
    const set = async (reason: string, hold: boolean) => {
      if (r.pendingReason !== reason || hold)
        await tx
          .update(refundRequests)
          .set(hold ? { pendingReason: reason, autoRefundAfter: null } : { pendingReason: reason })
          .where(eq(refundRequests.id, r.id));
      return hold ? ('held' as const) : ('waiting' as const);
    };
    const terms = await givebackTerms(tx, invoice);
    // A claim link's request refunds what the merchant's link promised; any other, the overpayment.
    const amount = r.source === 'claim_link' ? new Decimal(r.amount) : terms.byDefault;
    // What would be refunded now is what the bound is checked against.
    const refusal = await autoRefundRefusal(tx, tenant, invoice, r.source, amount, await linkOf(tx, r));
    // Switched off since: left as is (the job does not pick it; switching on again makes it older than the policy).
    if (refusal === 'off') return 'skipped';
    if (refusal) return set(refusal, true);
    // A rule that holds for good is told first. Then the delay in force now, not the one when the proposal was made
    // (a lengthened delay applies to waiting proposals, issue 42 §2); the policy change moves autoRefundAfter too,
    // except on a row a pass held at that moment.
    const due = new Date(r.createdAt.getTime() + tenant.autoRefundDelaySeconds * 1000);
    if (due > now) {
      await tx.update(refundRequests).set({ autoRefundAfter: due }).where(eq(refundRequests.id, r.id));
      return 'skipped';
    }
    if (amount.lt('0.01') || terms.refundable.lt(amount)) return set(AWAITING_SETTLEMENT, false);
    let refundId: string;
    try {
      const refund = await createRefund(
        tx,
        { tenantId: tenant.id, mode: r.mode, tenant: { withdrawalFeeRate: tenant.withdrawalFeeRate } },
        invoice.id,
        { destinationAddress: formatAddress(r.destinationAddress), amount: amount.toFixed(2) },
        POLICY_ACTOR,
        prepareAutoRefundControls,
      );
      refundId = refund.id;
    } catch (err) {
      // A refusal (balance, 24 h limit...) leaves the proposal to the merchant, with the reason shown to them.
      if (err instanceof ApiError && err.status < 500) return set(err.code, false);
      throw err;
    }
    await markDecided(tx, r, POLICY_ACTOR, { status: 'APPROVED', withdrawalId: refundId, declineReason: null });
    return 'refunded';
  });
}

/**
 * The auto-refund job: undecided proposals whose delay has passed, of tenants whose policy is on, taken fairly
 * (issue 30 §6): each tenant and mode's due proposals are numbered oldest-due first, and a pass takes every
 * partition's first before any partition's second, so one tenant's (or a test mode's) thousands cannot starve
 * another's one. Uses refund_requests_auto_due_idx. Each is tried on its own; one failing does not stop the others.
 */
export async function runAutoRefunds(db: Db, opts: { limit?: number; now?: Date } = {}) {
  const now = opts.now ?? new Date();
  const due = rowsOf<{ id: string }>(
    await db.execute(sql`
      select id from (
        select r.id, r.auto_refund_after,
               row_number() over (partition by r.tenant_id, r.mode order by r.auto_refund_after, r.id) as turn
          from refund_requests r
          join tenants t on t.id = r.tenant_id and t.auto_refund_overpayments and t.status = 'active'
         where r.status = 'PENDING' and r.auto_refund_after is not null and r.auto_refund_after <= ${now.toISOString()}::timestamptz
      ) d
       order by turn, auto_refund_after, id
       limit ${opts.limit ?? 100}`),
  );
  const counts: Record<AutoRefundOutcome, number> = { refunded: 0, waiting: 0, held: 0, skipped: 0 };
  for (const { id } of due) {
    try {
      counts[await autoRefund(db, id, now)]++;
    } catch (err) {
      log.error('auto refund failed', { refundRequestId: id, error: err instanceof Error ? err.message : String(err) });
    }
  }
  return counts;
}
