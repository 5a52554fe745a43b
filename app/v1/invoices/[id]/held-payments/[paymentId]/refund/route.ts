import { route } from '@/lib/api/route';
import { apiKeyActor } from '@/lib/audit/audit-merchant-action';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { refundHeldPaymentOp } from '@/lib/invoices/operations';
import { refundHeldPayment } from '@/lib/refunds/refund-held-payment';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(refundHeldPaymentOp, ({ db, auth, params }) =>
    refundHeldPayment(db, auth, { invoiceId: params.id!, paymentId: params.paymentId! }, apiKeyActor(auth)),
  ),
});
