import { and, eq, isNull } from 'drizzle-orm';
import { collectionPulls, invoices, subscriptionCollections, subscriptionPeriods } from '@/db/schema';
import type { Db } from '@/lib/db';
import { settleHeldInvoiceEmail } from './fall-back';

/**
 * Turns automatic collection off (the payer, in the customer portal): `subscription_collections` canceled with the
 * reason, and the e-mail of every unpaid period invoice held for a pull that was never recorded sent after all, in one transaction.
 * A pull already recorded goes on (its e-mail is settled by the job); one not recorded yet is not, since recordPull
 * checks the row under a shared lock that this update waits for. The on-chain permission is the payer's to revoke:
 * until they do, the contract would still allow a pull, but the gateway starts none. False when it was not on.
 */
export async function turnOffCollection(db: Db, subscriptionId: string, reason: string, now = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const off = await tx
      .update(subscriptionCollections)
      .set({ status: 'canceled', canceledAt: now, cancelReason: reason })
      .where(and(eq(subscriptionCollections.subscriptionId, subscriptionId), eq(subscriptionCollections.status, 'active')))
      .returning({ id: subscriptionCollections.subscriptionId });
    if (!off.length) return false;
    const unpulled = await tx
      .select({ invoiceId: subscriptionPeriods.invoiceId })
      .from(subscriptionPeriods)
      .innerJoin(invoices, eq(invoices.id, subscriptionPeriods.invoiceId))
      .leftJoin(collectionPulls, eq(collectionPulls.invoiceId, subscriptionPeriods.invoiceId))
      // Invoices still to pay: an expired one's e-mail would ask for a payment the checkout no longer takes.
      .where(and(eq(subscriptionPeriods.subscriptionId, subscriptionId), isNull(collectionPulls.id), eq(invoices.status, 'PENDING')));
    for (const p of unpulled) await settleHeldInvoiceEmail(tx, p.invoiceId, true, now);
    return true;
  });
}
