import { formatAddress } from '@/lib/chain/deposit-keys';
import type { Invoice } from '@/db/schema';
import { Decimal } from '@/lib/money';
import { formatAmount } from './amount';
import type { InvoiceView } from './schemas';
import type { InvoiceEventDataView } from '@/lib/events/payloads';

/** The wire shape of an invoice; txHashes are its canonical payments' hashes in chain order. */
export function invoiceView(row: Invoice, txHashes: string[]): InvoiceView {
  return {
    id: row.id,
    status: row.status,
    chain: row.chain,
    token: row.token,
    // Pay-in invoices show the exchange's address in payinCurrency; the USDT still arrives at row.depositAddress.
    depositAddress: row.payinAddress ?? formatAddress(row.depositAddress),
    amountExpected: formatAmount(row.amountExpected),
    amountReceived: formatAmount(row.amountReceived),
    amountCredited: formatAmount(row.amountCredited),
    feeAmount: formatAmount(row.feeAmount),
    ...(new Decimal(row.amountUncollected).isZero() ? {} : { amountUncollected: formatAmount(row.amountUncollected) }),
    underpaymentTolerancePercent: new Decimal(row.underpaymentTolerancePercent).toFixed(),
    amountShortfall: formatAmount(row.amountShortfall),
    confirmationsRequired: row.confirmationsRequired,
    txHashes,
    externalId: row.externalId,
    description: row.description,
    returnUrl: row.returnUrl,
    ...(row.customerEmail ? { customerEmail: row.customerEmail } : {}),
    metadata: (row.metadata ?? {}) as Record<string, unknown>,
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    ...(row.payinCurrency
      ? { payinCurrency: row.payinCurrency, payinAmount: formatAmount(row.payinAmount ?? '0'), payinTag: row.payinTag, payinStatus: row.payinStatus }
      : {}),
    ...(row.priceCurrency
      ? {
          priceCurrency: row.priceCurrency,
          priceAmount: formatAmount(row.priceAmount ?? '0'),
          rate: new Decimal(row.rate ?? '0').toFixed(),
          rateSource: row.rateSource ?? '',
          rateAt: (row.rateAt ?? row.createdAt).toISOString(),
        }
      : {}),
    ...(row.paymentLinkId ? { paymentLinkId: row.paymentLinkId } : {}),
  };
}

/** The spec's invoice event payload, plus the fee and the credited amount (an addition the spec allows: it lists what the data holds). */
export function invoiceEventData(row: Invoice, txHashes: string[]): InvoiceEventDataView {
  const v = invoiceView(row, txHashes);
  return {
    invoiceId: v.id,
    tenantId: row.tenantId,
    chain: v.chain,
    token: v.token,
    depositAddress: v.depositAddress,
    amountExpected: v.amountExpected,
    amountReceived: v.amountReceived,
    feeAmount: v.feeAmount,
    amountCredited: v.amountCredited,
    ...(v.amountUncollected ? { amountUncollected: v.amountUncollected } : {}),
    status: v.status,
    expiresAt: v.expiresAt,
    confirmationsRequired: v.confirmationsRequired,
    txHashes: v.txHashes,
    metadata: v.metadata,
  };
}
