import { formatAddress } from '@/lib/chain/deposit-keys';
import type { RefundRequest } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import type { AuthTenant } from '@/lib/api-keys/authenticate';
import type { AuditActor } from '@/lib/audit/record-audit';
import { getInvoiceOrThrow } from '@/lib/invoices/get-invoice-or-throw';
import { Decimal } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { createRefund } from '@/lib/refunds/create-refund';
import type { PrepareWithdrawalControls } from '@/lib/withdrawals/create-withdrawal';
import { parseWithdrawalAmount } from '@/lib/withdrawals/amounts';
import { getRefundRequestOrThrow } from './get-refund-request-or-throw';
import { markDecided } from './mark-decided';
import type { ApproveRefundRequestInput, DeclineRefundRequestInput } from './schemas';
import { refundRequestView } from './view';

type Owner = { tenantId: string; mode: Mode; tenant: Pick<AuthTenant, 'withdrawalFeeRate'> };

function assertPending(r: RefundRequest) {
  if (r.status !== 'PENDING') throw new ApiError('invalid_state', `This refund request is already ${r.status.toLowerCase()}.`);
}

/**
 * The amount given, else a claim link's own amount (what the merchant promised the payer), else
 * createRefund's default (the overpayment of a paid invoice, all of an unpaid one's settled money).
 */
function approvedAmount(r: RefundRequest, input: ApproveRefundRequestInput): { amount?: string } {
  if (input.amount !== undefined) return { amount: input.amount };
  return r.source === 'claim_link' ? { amount: new Decimal(r.amount).toFixed(2) } : {};
}

/**
 * Turns a payer's proposal into a refund to the address they gave
 * (`createRefund`: settled money only, the same controls, fee and sending
 * lane), then marks it APPROVED with its withdrawal, all in one transaction.
 * Locks the invoice before the request, the order the payer's proposals take,
 * so an approval and a new proposal never deadlock and exactly one wins.
 */
export async function approveRefundRequest(
  db: Db,
  owner: Owner,
  id: string,
  input: ApproveRefundRequestInput,
  actor: AuditActor,
  prepareControls: PrepareWithdrawalControls,
) {
  if (input.amount !== undefined) parseWithdrawalAmount(input.amount);
  const where = { id, tenantId: owner.tenantId, mode: owner.mode };
  const first = await getRefundRequestOrThrow(db, where);
  return db.transaction(async (tx) => {
    await getInvoiceOrThrow(tx, { id: first.invoiceId, tenantId: owner.tenantId, mode: owner.mode }, { forUpdate: true });
    const r = await getRefundRequestOrThrow(tx, where, { forUpdate: true });
    assertPending(r);
    const refund = await createRefund(
      tx,
      owner,
      r.invoiceId,
      { destinationAddress: formatAddress(r.destinationAddress), ...approvedAmount(r, input) },
      actor,
      prepareControls,
    );
    return refundRequestView(await markDecided(tx, r, actor, { status: 'APPROVED', withdrawalId: refund.id, declineReason: null }));
  });
}

/** The merchant says no; the reason is shown to the payer, who may propose again (within the per-invoice count). */
export async function declineRefundRequest(
  db: Db,
  owner: { tenantId: string; mode: Mode },
  id: string,
  input: DeclineRefundRequestInput,
  actor: AuditActor,
) {
  return db.transaction(async (tx) => {
    const r = await getRefundRequestOrThrow(tx, { id, ...owner }, { forUpdate: true });
    assertPending(r);
    return refundRequestView(await markDecided(tx, r, actor, { status: 'DECLINED', withdrawalId: null, declineReason: input.reason ?? null }));
  });
}
