import { formatAddress } from '@/lib/chain/deposit-keys';
import type { HeldPayment } from '@/db/schema';
import type { Asset, ChainKey } from '@/lib/config/rails';
import type { HeldPaymentEventDataView } from '@/lib/events/payloads';
import { formatAmount } from '@/lib/money';

// In lib/invoices, not lib/payments: the invoice's API view lists its held payments, and lib/payments
// (detection) imports the invoice lifecycle, never the other way.
/** The event payload and the API view of a held payment. */
export function heldPaymentEventData(r: HeldPayment, invoice: { chain: ChainKey; token: Asset }): HeldPaymentEventDataView {
  return {
    id: r.id,
    invoiceId: r.invoiceId,
    chain: r.chain,
    token: r.token,
    invoiceChain: invoice.chain,
    invoiceToken: invoice.token,
    mismatch: r.mismatch,
    status: r.status,
    amount: formatAmount(r.amount),
    txHash: r.txHash,
    logIndex: r.logIndex,
    blockNumber: r.blockNumber,
    fromAddress: formatAddress(r.fromAddress),
    depositAddress: formatAddress(r.toAddress),
    refundAddress: r.refundAddress ? formatAddress(r.refundAddress) : null,
    withdrawalId: r.withdrawalId,
    refundFailureReason: r.refundFailureReason,
    reorgedAt: r.reorgedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  };
}
