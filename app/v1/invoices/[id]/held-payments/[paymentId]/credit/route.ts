import { route } from '@/lib/api/route';
import { apiKeyActor } from '@/lib/audit/audit-merchant-action';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { creditHeldPayment } from '@/lib/payments/credit-held-payment';
import { creditHeldPaymentOp } from '@/lib/invoices/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(creditHeldPaymentOp, ({ db, auth, params }) =>
    creditHeldPayment(db, auth, { invoiceId: params.id!, paymentId: params.paymentId! }, apiKeyActor(auth)),
  ),
});
