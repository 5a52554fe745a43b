import { and, eq } from 'drizzle-orm';
import { refundClaims } from '@/db/schema';
import type { Db } from '@/lib/db';
import { ApiError, notFound } from '@/lib/api/errors';
import { merchantAuditEntry } from '@/lib/audit/audit-merchant-action';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import { isId } from '@/lib/ids';
import { formatAmount } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { claimStatus, refundClaimView } from './view';

/** The merchant withdraws an unused link (sent to the wrong person, amount wrong): it stops working at once. */
export async function cancelRefundClaim(db: Db, owner: { tenantId: string; mode: Mode }, id: string, actor: AuditActor) {
  if (!isId('refundClaim', id)) throw notFound('Refund claim');
  return db.transaction(async (tx) => {
    const [c] = await tx
      .select()
      .from(refundClaims)
      .where(and(eq(refundClaims.id, id), eq(refundClaims.tenantId, owner.tenantId), eq(refundClaims.mode, owner.mode)))
      .for('update');
    if (!c) throw notFound('Refund claim');
    const status = claimStatus(c);
    if (status !== 'OPEN') throw new ApiError('invalid_state', `This refund claim link is already ${status.toLowerCase()}.`);
    const [row] = await tx.update(refundClaims).set({ status: 'CANCELED' }).where(eq(refundClaims.id, id)).returning();
    await recordAudit(
      tx,
      actor,
      merchantAuditEntry(owner, { action: 'refund_claim.canceled', claim: { id, invoiceId: c.invoiceId, amount: formatAmount(c.amount) } }),
    );
    return refundClaimView(row!, null);
  });
}
