import { sql, type SQL } from 'drizzle-orm';
import { tenants, type Invoice } from '@/db/schema';
import type { Network } from '@/lib/chain/network';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';
import type { CreateInvoiceInput } from './schemas';

/** A fiat-priced invoice's price and the rate locked for it (lib/fiat-rates prices it; null columns otherwise). */
export type InvoicePricing = Pick<Invoice, 'priceCurrency' | 'priceAmount' | 'rate' | 'rateSource' | 'rateAt'>;

/** What only the caller knows: the claimed address, and for pay-ins the exchange order's fields and expiry. */
type Extra = Partial<
  Pick<
    Invoice,
    | 'depositAddress'
    | 'addressIndex'
    | 'expiresAt'
    | 'payinCurrency'
    | 'payinAmount'
    | 'payinAddress'
    | 'payinTag'
    | 'payinStatus'
    | 'paymentLinkId'
    | 'claimTokenHash'
  >
>;

/**
 * The tenant's underpayment tolerance as an expression of the insert itself, so
 * the value frozen on the invoice is the one the tenant row holds as the row is
 * written (no separate read that a settings change could slip between).
 */
export function toleranceOfTenantSql(tenantId: string): SQL {
  return sql`(select ${tenants.underpaymentTolerancePercent} from ${tenants} where ${tenants.id} = ${tenantId})`;
}

/**
 * A new PENDING invoice as stored: the one builder of invoice rows (POST
 * /v1/invoices, storefront orders and exchange pay-ins), so a column added to
 * `invoices` is set in one place. Fields the database would default are given
 * their default values, so the row equals what a RETURNING * would give.
 */
export function invoiceRow(
  owner: { tenantId: string; mode: Mode },
  network: Pick<Network, 'chainId' | 'confirmations'>,
  input: CreateInvoiceInput,
  now: Date,
  extra: Extra = {},
  pricing: InvoicePricing | null = null,
): Invoice {
  // A fiat amount taken as USDT would under- or overcharge: fiat input comes converted by priceInvoice (lib/fiat-rates).
  if ((input.currency ?? input.token) !== input.token)
    throw new Error(`invoiceRow: a ${input.currency} price must be converted to ${input.token} first (priceInvoice)`);
  return {
    id: newId('invoice'),
    tenantId: owner.tenantId,
    mode: owner.mode,
    status: 'PENDING',
    chain: input.chain,
    claimTokenHash: extra.claimTokenHash ?? null,
    token: input.token,
    chainId: network.chainId,
    // Placeholder until the address is claimed (create-invoice claims it in its statement).
    depositAddress: '0x0000000000000000000000000000000000000000',
    addressIndex: -1,
    amountExpected: input.amount,
    amountReceived: '0',
    amountCredited: '0',
    feeAmount: '0',
    amountUncollected: '0',
    // Placeholder: the insert reads the tenant's tolerance (toleranceOfTenantSql) and returns it.
    underpaymentTolerancePercent: '0',
    amountShortfall: '0',
    confirmationsRequired: network.confirmations,
    externalId: input.externalId ?? null,
    description: input.description ?? null,
    returnUrl: input.returnUrl ?? null,
    customerEmail: input.customerEmail ?? null,
    metadata: input.metadata ?? {},
    expiresAt: new Date(now.getTime() + input.expiresInMinutes * 60_000),
    createdAt: now,
    updatedAt: now,
    payinCurrency: null,
    payinAmount: null,
    payinAddress: null,
    payinTag: null,
    payinStatus: null,
    priceCurrency: pricing?.priceCurrency ?? null,
    priceAmount: pricing?.priceAmount ?? null,
    rate: pricing?.rate ?? null,
    rateSource: pricing?.rateSource ?? null,
    rateAt: pricing?.rateAt ?? null,
    paymentLinkId: null,
    ...extra,
  };
}
