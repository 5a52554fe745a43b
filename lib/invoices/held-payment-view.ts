import { getAddress } from 'viem';
import type { MismatchedPayment } from '@/db/schema';
import type { MismatchedPaymentEventDataView } from '@/lib/events/payloads';
import { formatAmount } from '@/lib/money';

// In lib/invoices, not lib/payments: the invoice's API view lists its held payments, and lib/payments
// (detection) imports the invoice lifecycle, never the other way.
/** The event payload and the API view of a mismatched payment. */
export function mismatchedPaymentEventData(r: MismatchedPayment, invoice: { chain: string; token: string }): MismatchedPaymentEventDataView {
  return {
    id: r.id,
    invoiceId: r.invoiceId,
    chain: r.chain as MismatchedPaymentEventDataView['chain'],
    token: r.token as MismatchedPaymentEventDataView['token'],
    invoiceChain: invoice.chain as MismatchedPaymentEventDataView['chain'],
    invoiceToken: invoice.token as MismatchedPaymentEventDataView['token'],
    mismatch: r.mismatch,
    status: r.status,
    amount: formatAmount(r.amount),
    txHash: r.txHash,
    logIndex: r.logIndex,
    blockNumber: r.blockNumber,
    fromAddress: getAddress(r.fromAddress),
    depositAddress: getAddress(r.toAddress),
    refundAddress: r.refundAddress ? getAddress(r.refundAddress) : null,
    withdrawalId: r.withdrawalId,
    refundFailureReason: r.refundFailureReason,
    reorgedAt: r.reorgedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  };
}
