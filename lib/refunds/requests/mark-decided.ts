import { eq } from 'drizzle-orm';
import { formatAddress } from '@/lib/chain/deposit-keys';
import { refundRequests, type RefundRequest } from '@/db/schema';
import type { Db } from '@/lib/db';
import { merchantAuditEntry } from '@/lib/audit/audit-merchant-action';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import { emitEvent } from '@/lib/events/emit-event';
import { decidedBy } from './decided-by';
import { refundRequestEventData } from './view';

/** Marks the locked PENDING request decided, with its event and audit row, in the caller's transaction. */
export async function markDecided(
  tx: Db,
  r: RefundRequest,
  actor: AuditActor,
  change: Pick<RefundRequest, 'status' | 'withdrawalId' | 'declineReason'>,
) {
  const [row] = await tx
    .update(refundRequests)
    .set({ ...change, pendingReason: null, decidedBy: decidedBy(actor), decidedAt: new Date() })
    .where(eq(refundRequests.id, r.id))
    .returning();
  const type = change.status === 'APPROVED' ? 'refund_request.approved' : 'refund_request.declined';
  await emitEvent(tx, { tenantId: r.tenantId, mode: r.mode, type, subjectId: r.id, data: refundRequestEventData(row!) });
  await recordAudit(
    tx,
    actor,
    merchantAuditEntry(r, {
      action: type,
      request: {
        id: r.id,
        invoiceId: r.invoiceId,
        destinationAddress: formatAddress(r.destinationAddress),
        withdrawalId: row!.withdrawalId,
        declineReason: row!.declineReason,
      },
    }),
  );
  return row!;
}
