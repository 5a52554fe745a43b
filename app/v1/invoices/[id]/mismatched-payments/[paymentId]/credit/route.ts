import { route } from '@/lib/api/route';
import { apiKeyActor } from '@/lib/audit/audit-merchant-action';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { creditMismatchedPayment } from '@/lib/payments/credit-mismatched-payment';
import { creditMismatchedPaymentOp } from '@/lib/invoices/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(creditMismatchedPaymentOp, ({ db, auth, params }) =>
    creditMismatchedPayment(db, auth, { invoiceId: params.id!, paymentId: params.paymentId! }, apiKeyActor(auth)),
  ),
});
