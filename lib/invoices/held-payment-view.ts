import { getAddress } from 'viem';
import type { HeldPayment } from '@/db/schema';
import type { HeldPaymentEventDataView } from '@/lib/events/payloads';
import { formatAmount } from '@/lib/money';

// In lib/invoices, not lib/payments: the invoice's API view lists its held payments, and lib/payments
// (detection) imports the invoice lifecycle, never the other way.
/** The event payload and the API view of a held payment. */
export function heldPaymentEventData(r: HeldPayment, invoice: { chain: string; token: string }): HeldPaymentEventDataView {
  return {
    id: r.id,
    invoiceId: r.invoiceId,
    chain: r.chain as HeldPaymentEventDataView['chain'],
    token: r.token as HeldPaymentEventDataView['token'],
    invoiceChain: invoice.chain as HeldPaymentEventDataView['chain'],
    invoiceToken: invoice.token as HeldPaymentEventDataView['token'],
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
