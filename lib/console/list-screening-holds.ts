import { and, desc, eq } from 'drizzle-orm';
import { heldPayments, invoices, tenants } from '@/db/schema';
import type { Db } from '@/lib/db';

/** The review queue: payments held because their sender is on the SDN snapshot, oldest first (they wait longest). */
export async function listScreeningHolds(db: Db, status: 'held' | 'frozen' = 'held', limit = 200) {
  return db
    .select({
      id: heldPayments.id,
      tenantId: heldPayments.tenantId,
      tenantName: tenants.name,
      mode: heldPayments.mode,
      chain: heldPayments.chain,
      token: heldPayments.token,
      amount: heldPayments.amount,
      fromAddress: heldPayments.fromAddress,
      txHash: heldPayments.txHash,
      invoiceId: heldPayments.invoiceId,
      invoiceStatus: invoices.status,
      createdAt: heldPayments.createdAt,
    })
    .from(heldPayments)
    .innerJoin(invoices, eq(invoices.id, heldPayments.invoiceId))
    .innerJoin(tenants, eq(tenants.id, heldPayments.tenantId))
    .where(and(eq(heldPayments.mismatch, 'screening'), eq(heldPayments.status, status)))
    .orderBy(status === 'held' ? heldPayments.createdAt : desc(heldPayments.createdAt))
    .limit(limit);
}
