import { desc, eq } from 'drizzle-orm';
import { collectionPulls, subscriptionCollections } from '@/db/schema';
import type { Db } from '@/lib/db';
import { formatAmount } from '@/lib/invoices/amount';
import type { Mode } from '@/lib/mode';
import { getSubscriptionOrThrow } from '../load-subscription';

/**
 * The dashboard's view of a subscription's automatic collection: whether it is set up (and why it ended) and every
 * attempt, newest period first, with the gas charged for a confirmed pull. Read from the database only (the API's
 * GET …/collection also reads the chain). Another tenant's or mode's subscription is a 404.
 */
export async function listCollectionAttempts(db: Db, where: { id: string; tenantId: string; mode: Mode }, limit = 100) {
  const sub = await getSubscriptionOrThrow(db, where);
  const [[kept], pulls] = await Promise.all([
    db.select().from(subscriptionCollections).where(eq(subscriptionCollections.subscriptionId, sub.id)),
    db.select().from(collectionPulls).where(eq(collectionPulls.subscriptionId, sub.id)).orderBy(desc(collectionPulls.periodStart)).limit(limit),
  ]);
  return {
    collection: kept ? { status: kept.status, payer: kept.payer, cancelReason: kept.cancelReason, createdAt: kept.createdAt.toISOString() } : null,
    attempts: pulls.map((p) => ({
      id: p.id,
      periodStart: p.periodStart.toISOString(),
      invoiceId: p.invoiceId,
      status: p.status,
      reason: p.reason,
      amount: formatAmount(p.amount),
      txHash: p.txHash,
      chainId: p.chainId,
      networkFee: p.networkFee === null ? null : formatAmount(p.networkFee),
      createdAt: p.createdAt.toISOString(),
    })),
  };
}
