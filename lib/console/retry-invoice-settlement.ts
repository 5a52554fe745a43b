import { and, desc, eq } from 'drizzle-orm';
import { invoices, settlements } from '@/db/schema';
import { ApiError, notFound } from '@/lib/api/errors';
import { recordAudit, type AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import { retrySettlement } from '@/lib/settlements/retry-settlement';

/**
 * Console: puts an invoice's failed settlement back in the settle job's queue
 * (lib/settlements/retry-settlement, which resumes recorded on-chain steps rather
 * than repeating them). Moves no money itself.
 */
export async function retryInvoiceSettlement(db: Db, actor: AuditActor, invoiceId: string, now = new Date()) {
  return db.transaction(async (tx) => {
    const [inv] = await tx
      .select({ id: invoices.id, status: invoices.status, tenantId: invoices.tenantId, mode: invoices.mode })
      .from(invoices)
      .where(eq(invoices.id, invoiceId));
    if (!inv) throw notFound('Invoice');
    const [failed] = await tx
      .select()
      .from(settlements)
      .where(and(eq(settlements.invoiceId, inv.id), eq(settlements.status, 'failed')))
      .orderBy(desc(settlements.createdAt))
      .limit(1);
    if (!failed)
      throw new ApiError(
        'invalid_state',
        `Invoice ${inv.id} has no failed settlement to retry (it is ${inv.status}; a settlement in progress is retried by the job on its own).`,
      );
    const s = await retrySettlement(tx, failed.id);
    if (!s) throw new ApiError('invalid_state', 'The settlement changed meanwhile; reload and try again.');
    const [after] = await tx.select({ status: invoices.status }).from(invoices).where(eq(invoices.id, inv.id));
    await recordAudit(
      tx,
      actor,
      {
        action: 'invoice.settlement_retried',
        target: { type: 'invoice', id: inv.id },
        tenantId: inv.tenantId,
        mode: inv.mode,
        before: {
          invoiceStatus: inv.status,
          settlementId: failed.id,
          settlementStatus: failed.status,
          attempts: failed.attempts,
          lastError: failed.lastError,
        },
        after: { invoiceStatus: after!.status, settlementStatus: s.status, attempts: s.attempts },
      },
      now,
    );
    return { invoiceId: inv.id, settlementId: s.id, invoiceStatus: after!.status };
  });
}
