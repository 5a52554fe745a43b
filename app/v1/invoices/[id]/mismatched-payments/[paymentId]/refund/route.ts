// Deprecated alias of ../../../held-payments/[paymentId]/refund (docs/webhooks.md "Renamed").
import { route } from '@/lib/api/route';
import { apiKeyActor } from '@/lib/audit/audit-merchant-action';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { refundMismatchedPaymentOp } from '@/lib/invoices/operations';
import { refundHeldPayment } from '@/lib/refunds/refund-held-payment';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(refundMismatchedPaymentOp, ({ db, auth, params }) =>
    refundHeldPayment(db, auth, { invoiceId: params.id!, paymentId: params.paymentId! }, apiKeyActor(auth)),
  ),
});
