import { enqueueReceipts } from '@/lib/email/enqueue-receipts';
import { onInvoiceEvents } from '@/lib/invoices/invoice-event-hooks';
import { finishPayoutItem } from '@/lib/payouts/finish-payout-item';
import { finishHeldPaymentRefund } from '@/lib/refunds/finish-held-payment-refund';
import { applyInvoiceEventsToOrders } from '@/lib/storefront/apply-invoice-events';
import { onWithdrawalFinal } from '@/lib/withdrawals/withdrawal-final-hooks';

/**
 * The composition point of the payment path: the one place that knows both
 * invoices and the domains reacting to them, so neither imports the other.
 * Every process that writes invoice events or finishes withdrawals calls it once at start-up (boot,
 * the worker, Trigger.dev tasks, the test setup, benches); calling it again is harmless.
 */
export function installPaymentHooks(): void {
  // A confirmed invoice pays its order, an expired one cancels it, in the invoice's transaction.
  onInvoiceEvents('storefront-orders', ['invoice.confirmed', 'invoice.expired'], applyInvoiceEventsToOrders);
  // A confirmed invoice with a customer e-mail gets a receipt in the e-mail outbox, in the same transaction.
  onInvoiceEvents('receipts', ['invoice.confirmed'], enqueueReceipts);
  // A held payment sent back is refunded when its withdrawal completes, held again (with the reason) when it fails.
  onWithdrawalFinal('held-payment-send-back', finishHeldPaymentRefund);
  // A payout's item follows its withdrawal; the last item to end completes the payout (payout.* events).
  onWithdrawalFinal('payout-items', finishPayoutItem);
}
