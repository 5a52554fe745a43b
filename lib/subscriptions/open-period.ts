import type { Plan, Subscription } from '@/db/schema';
import { subscriptionPeriods } from '@/db/schema';
import { requireRail } from '@/lib/chain/network';
import type { Db } from '@/lib/db';
import { createInvoice } from '@/lib/invoices/create-invoice';
import { CreateInvoiceBody } from '@/lib/invoices/schemas';
import { Decimal } from '@/lib/money';
import { priceInvoice } from '@/lib/fiat-rates/price-invoice';
import { enqueueEmail } from '@/lib/email/enqueue-email';
import { emailLink } from '@/lib/email/email-link';
import { eq } from 'drizzle-orm';
import { subscriptionCollections, tenants } from '@/db/schema';
import { addIntervals, dueMinutes } from './periods';

export type NetworkFor = typeof requireRail<'depositMnemonic'>;

/** Start and end of paid period `n` (from 0) of a subscription to `plan`. */
export function periodBounds(sub: Pick<Subscription, 'billingAnchor'>, plan: Pick<Plan, 'interval' | 'intervalCount'>, n: number) {
  return {
    start: addIntervals(sub.billingAnchor, plan.interval, plan.intervalCount, n),
    end: addIntervals(sub.billingAnchor, plan.interval, plan.intervalCount, n + 1),
  };
}

/**
 * Bills paid period `n`: its invoice (invoice.created with it) and its period row, in the caller's transaction. The
 * row's unique index on (subscription, period start) makes a second billing of the same period fail, taking its
 * invoice with it when the transaction rolls back: a period is invoiced exactly once whatever runs concurrently.
 */
export async function openPeriod(tx: Db, sub: Subscription, plan: Plan, n: number, now: Date, networkFor: NetworkFor = requireRail) {
  const { start, end } = periodBounds(sub, plan, n);
  const minutes = dueMinutes(start, end);
  const network = networkFor(sub.mode, { chain: sub.chain, token: sub.token }, ['depositMnemonic']);
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const body = CreateInvoiceBody.parse({
    amount: new Decimal(plan.amount).toFixed(2),
    currency: plan.priceCurrency ?? undefined,
    chain: sub.chain,
    token: sub.token,
    description: `${plan.name}: ${day(start)} to ${day(end)}`.slice(0, 1000),
    metadata: { subscriptionId: sub.id, periodStart: start.toISOString() },
    customerEmail: sub.customerEmail, // a receipt once paid, as for any invoice with an e-mail
    expiresInMinutes: minutes,
  });
  // A fiat price is converted at the rate of now, as a fiat-priced invoice is; no rate (rate_unavailable) throws and
  // rolls the period back, to be billed by a later run: an amount is never guessed.
  const { input, pricing } = await priceInvoice(tx, sub.mode, body);
  const invoice = await createInvoice(tx, { tenantId: sub.tenantId, mode: sub.mode }, network, input, pricing, { now });
  const dueAt = new Date(now.getTime() + minutes * 60_000);
  await tx.insert(subscriptionPeriods).values({
    subscriptionId: sub.id,
    periodNumber: n,
    periodStart: start,
    periodEnd: end,
    invoiceId: invoice.id,
    dueAt,
    amount: invoice.amountExpected,
    priceCurrency: pricing?.priceCurrency ?? null,
    rate: pricing?.rate ?? null,
    rateSource: pricing?.rateSource ?? null,
    rateAt: pricing?.rateAt ?? null,
  });
  // The customer's copy of the checkout link (its claim token exists in clear only now); sent by the e-mail job. With
  // automatic collection set up it is held: sent only if the period is not pulled (lib/subscriptions/collect).
  const [collection] = await tx
    .select({ status: subscriptionCollections.status })
    .from(subscriptionCollections)
    .where(eq(subscriptionCollections.subscriptionId, sub.id));
  const [tenant] = await tx.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, sub.tenantId));
  await enqueueEmail(tx, {
    tenantId: sub.tenantId,
    mode: sub.mode,
    kind: 'invoice',
    subjectId: invoice.id,
    to: sub.customerEmail,
    status: collection?.status === 'active' ? 'held' : 'pending',
    data: {
      merchantName: tenant!.name,
      invoiceId: invoice.id,
      amount: invoice.amountExpected,
      token: sub.token,
      chain: sub.chain,
      description: invoice.description ?? plan.name,
      dueAt: dueAt.toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
      payUrl: emailLink(invoice.checkoutUrl),
    },
  });
  return { start, end, invoiceId: invoice.id, checkoutUrl: invoice.checkoutUrl };
}
