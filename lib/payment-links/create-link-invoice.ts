import { eq, sql } from 'drizzle-orm';
import { paymentLinks, tenants } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { ApiError } from '@/lib/api/errors';
import { requireRail } from '@/lib/chain/network';
import { env } from '@/lib/env';
import { addressGroup } from '@/lib/http/address-group';
import { priceInvoice } from '@/lib/fiat-rates/price-invoice';
import { amountString } from '@/lib/invoices/amount';
import { createInvoice } from '@/lib/invoices/create-invoice';
import { CreateInvoiceBody, CustomerEmail } from '@/lib/invoices/schemas';
import { Decimal } from '@/lib/money';
import { overCreationLimit } from '@/lib/rate-limits/order-limits';
import { tenantRails } from '@/lib/tenants/tenant-rails';
import { PAID_STATUSES } from './view';

export interface LinkInvoiceLimits {
  perAddressPerMinute: number;
  perLinkPerMinute: number;
  maxOpenInvoices: number;
}

export const linkInvoiceLimits = (): LinkInvoiceLimits => {
  const e = env();
  return {
    perAddressPerMinute: e.PAYMENT_LINK_INVOICES_PER_ADDRESS_PER_MINUTE,
    perLinkPerMinute: e.PAYMENT_LINK_INVOICES_PER_LINK_PER_MINUTE,
    maxOpenInvoices: e.PAYMENT_LINK_MAX_OPEN_INVOICES,
  };
};

const TypedAmount = amountString({ maxDecimals: 2, max: '1000000000', example: '25.00' });
const closed = (message: string) => new ApiError('invalid_state', message);
const tooMany = (message: string, wait: number) => new ApiError('rate_limited', message, undefined, { 'Retry-After': String(wait) });

/**
 * A payer on `/l/<slug>` asks to pay: a fresh invoice of the link's tenant and
 * mode, priced by the link (fixed, or the payer's amount within its bounds;
 * fiat at a rate locked now), carrying the link's id. Refused, creating
 * nothing, when the link is disabled, expired or sold out, when the address or
 * the link is past its per-minute limit, or when the link already holds too
 * many unpaid invoices. Under a quantity limit, unpaid unexpired invoices hold
 * a place, so the limit is never exceeded; the count and the insert run under
 * the link's advisory lock, so concurrent payers cannot slip past it. The payer may leave an e-mail for a receipt.
 */
export async function createLinkInvoice(
  db: Db,
  slug: string,
  payer: { amount?: string; customerEmail?: string; clientAddress: string | null },
  opts: { limits?: LinkInvoiceLimits; networkFor?: typeof requireRail<'depositMnemonic'> } = {},
) {
  const limits = opts.limits ?? linkInvoiceLimits();
  const [link] = await db.select().from(paymentLinks).where(eq(paymentLinks.slug, slug));
  if (!link) throw new ApiError('not_found', 'Payment link not found.');
  if (link.disabledAt) throw closed('This payment link is no longer taking payments.');
  if (link.expiresAt && link.expiresAt <= new Date()) throw closed('This payment link has expired.');

  let amount = link.amount;
  if (amount === null) {
    const typed = TypedAmount.safeParse((payer.amount ?? '').trim());
    if (!typed.success)
      throw new ApiError('invalid_amount', `Amount ${typed.error.issues[0]!.message}.`, [
        { path: 'amount', message: typed.error.issues[0]!.message },
      ]);
    const [min, max] = [new Decimal(link.minAmount!), new Decimal(link.maxAmount!)];
    if (new Decimal(typed.data).lt(min) || new Decimal(typed.data).gt(max)) {
      const message = `must be from ${min.toFixed(2)} to ${max.toFixed(2)} ${link.currency}`;
      throw new ApiError('amount_out_of_range', `Amount ${message}.`, [{ path: 'amount', message }]);
    }
    amount = typed.data;
  }

  // The payer's e-mail for a receipt, optional; checked before anything is written.
  const email = payer.customerEmail?.trim() ? CustomerEmail.safeParse(payer.customerEmail) : null;
  if (email && !email.success)
    throw new ApiError('validation_failed', 'E-mail must be an e-mail address.', [{ path: 'customerEmail', message: 'must be an e-mail address' }]);

  if (payer.clientAddress !== null) {
    const wait = await overCreationLimit(db, `plink-addr:${addressGroup(payer.clientAddress)}`, limits.perAddressPerMinute);
    if (wait !== null) throw tooMany(`Too many payments started from your address; try again in ${wait} seconds.`, wait);
  }
  const wait = await overCreationLimit(db, `plink:${link.id}`, limits.perLinkPerMinute);
  if (wait !== null) throw tooMany(`This payment link is busy; try again in ${wait} seconds.`, wait);

  const owner = { tenantId: link.tenantId, mode: link.mode };
  const rail = { chain: link.chain, token: link.token };
  // The rail was accepted when the link was made; the operator or the tenant may have turned it off since.
  const [tenant] = await db.select({ rails: tenants.rails }).from(tenants).where(eq(tenants.id, link.tenantId));
  if (!tenantRails(tenant!, link.mode).includes(`${rail.chain}:${rail.token}`))
    throw closed(`This payment link is not taking ${rail.token} payments on ${rail.chain} at the moment.`);
  const network = (opts.networkFor ?? requireRail)(link.mode, rail, ['depositMnemonic']);
  const { input, pricing } = await priceInvoice(
    db,
    link.mode,
    CreateInvoiceBody.parse({
      amount: new Decimal(amount).toFixed(2),
      currency: link.currency,
      chain: rail.chain,
      token: rail.token,
      description: (link.description ? `${link.name}: ${link.description}` : link.name).slice(0, 1000),
      metadata: { paymentLinkId: link.id },
      ...(email?.success ? { customerEmail: email.data } : {}),
      expiresInMinutes: link.invoiceExpiresInMinutes,
    }),
  );
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`payment-link:${link.id}`}))`);
    const [c] = rowsOf<{ paid: number; open: number }>(
      await tx.execute(sql`
        select count(*) filter (where status in (${sql.join(
          PAID_STATUSES.map((s) => sql`${s}`),
          sql`, `,
        )}))::int as paid,
               count(*) filter (where status in ('PENDING', 'PARTIALLY_PAID') and expires_at > now())::int as open
        from invoices where payment_link_id = ${link.id}`),
    );
    const [paid, open] = [Number(c!.paid), Number(c!.open)];
    if (link.maxPayments !== null && paid >= link.maxPayments) throw closed('This payment link is sold out.');
    if (link.maxPayments !== null && paid + open >= link.maxPayments) {
      throw new ApiError(
        'too_many_open_invoices',
        'Every remaining place is held by a payer who has not paid yet; please try again in a few minutes.',
        undefined,
        {
          'Retry-After': '60',
        },
      );
    }
    if (open >= limits.maxOpenInvoices) {
      throw new ApiError(
        'too_many_open_invoices',
        'This payment link has too many unpaid invoices at the moment; please try again in a few minutes.',
        undefined,
        {
          'Retry-After': '60',
        },
      );
    }
    return createInvoice(tx, owner, network, input, pricing, { paymentLinkId: link.id });
  });
}
