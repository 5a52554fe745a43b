import { and, gt, inArray } from 'drizzle-orm';
import { invoices } from '@/db/schema';
import { checkoutPath } from '@/lib/invoices/claim-token';
import type { Db } from '@/lib/db';

const UNPAID = ['PENDING', 'PARTIALLY_PAID'] as const;

/**
 * The checkout of each listed subscription's latest invoice while it can still be paid (unpaid, not expired), by
 * subscription id. The bare checkout (`/pay/<id>`): paying needs no credential and the page shows only what any
 * holder of the id sees (docs/invoices.md, the payer's claim token). The claim token exists in clear only in the
 * invoice e-mail, so the refund form stays with that link. `subs` must be the session customer's own subscriptions.
 */
export async function portalPayLinks(db: Db, subs: { id: string; latestInvoiceId: string | null }[], now = new Date()) {
  const ids = subs.flatMap((s) => (s.latestInvoiceId ? [s.latestInvoiceId] : []));
  if (!ids.length) return new Map<string, string>();
  const open = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(inArray(invoices.id, ids), inArray(invoices.status, [...UNPAID]), gt(invoices.expiresAt, now)));
  const payable = new Set(open.map((i) => i.id));
  return new Map(subs.filter((s) => s.latestInvoiceId && payable.has(s.latestInvoiceId)).map((s) => [s.id, checkoutPath(s.latestInvoiceId!)]));
}
