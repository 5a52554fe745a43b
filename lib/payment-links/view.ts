import { and, inArray, sql } from 'drizzle-orm';
import { invoices, type PaymentLink } from '@/db/schema';
import type { Db } from '@/lib/db';
import { formatAmount } from '@/lib/invoices/amount';
import type { PaymentLinkView } from './schemas';

/** Invoice statuses that mean a payer paid in full (seen on chain; confirmation may still be pending). */
export const PAID_STATUSES = ['DETECTED', 'OVERPAID', 'CONFIRMED', 'PROCESSING_PAYOUT', 'PAID_OUT'] as const;

export interface LinkCounts {
  paid: number;
  open: number;
}

/** Paid and open (unpaid, unexpired) invoice counts of each link, in one grouped query over the link index. */
export async function linkCounts(db: Db, linkIds: string[]): Promise<Map<string, LinkCounts>> {
  const out = new Map<string, LinkCounts>(linkIds.map((id) => [id, { paid: 0, open: 0 }]));
  if (!linkIds.length) return out;
  const rows = await db
    .select({
      id: invoices.paymentLinkId,
      paid: sql<number>`count(*) filter (where ${inArray(invoices.status, [...PAID_STATUSES])})::int`,
      open: sql<number>`count(*) filter (where ${invoices.status} in ('PENDING', 'PARTIALLY_PAID') and ${invoices.expiresAt} > now())::int`,
    })
    .from(invoices)
    .where(and(inArray(invoices.paymentLinkId, linkIds)))
    .groupBy(invoices.paymentLinkId);
  for (const r of rows) out.set(r.id!, { paid: Number(r.paid), open: Number(r.open) });
  return out;
}

/** Why the link's page would not create an invoice now, or 'active'. Open invoices hold a place under a quantity limit. */
export function linkStatus(link: PaymentLink, counts: LinkCounts, now = new Date()): PaymentLinkView['status'] {
  if (link.disabledAt) return 'disabled';
  if (link.expiresAt && link.expiresAt <= now) return 'expired';
  if (link.maxPayments !== null && counts.paid + counts.open >= link.maxPayments) return 'sold_out';
  return 'active';
}

export function paymentLinkView(link: PaymentLink, counts: LinkCounts): PaymentLinkView {
  return {
    id: link.id,
    url: `/l/${link.slug}`,
    name: link.name,
    description: link.description,
    amount: link.amount === null ? null : formatAmount(link.amount),
    minAmount: link.minAmount === null ? null : formatAmount(link.minAmount),
    maxAmount: link.maxAmount === null ? null : formatAmount(link.maxAmount),
    chain: link.chain,
    token: link.token,
    currency: link.currency,
    maxPayments: link.maxPayments,
    paidCount: counts.paid,
    openCount: counts.open,
    invoiceExpiresInMinutes: link.invoiceExpiresInMinutes,
    status: linkStatus(link, counts),
    expiresAt: link.expiresAt?.toISOString() ?? null,
    disabledAt: link.disabledAt?.toISOString() ?? null,
    createdAt: link.createdAt.toISOString(),
  };
}

/** One link's view with its counts. */
export async function viewOf(db: Db, link: PaymentLink): Promise<PaymentLinkView> {
  return paymentLinkView(link, (await linkCounts(db, [link.id])).get(link.id)!);
}
