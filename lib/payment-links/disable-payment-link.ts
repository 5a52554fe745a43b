import { and, eq, isNull } from 'drizzle-orm';
import { paymentLinks } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { getPaymentLinkOrThrow } from './get-payment-link-or-throw';
import { viewOf } from './view';

/**
 * Stops the page creating invoices; invoices it already created can still be
 * paid. Disabling a disabled link changes nothing (the first disabledAt stays).
 */
export async function disablePaymentLink(db: Db, where: { id: string; tenantId: string; mode: Mode }) {
  await getPaymentLinkOrThrow(db, where);
  await db
    .update(paymentLinks)
    .set({ disabledAt: new Date() })
    .where(and(eq(paymentLinks.id, where.id), isNull(paymentLinks.disabledAt)));
  return viewOf(db, await getPaymentLinkOrThrow(db, where));
}
