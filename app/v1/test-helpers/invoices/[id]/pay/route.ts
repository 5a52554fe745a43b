import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { payTestInvoiceOp } from '@/lib/invoices/operations';
import { payTestInvoice } from '@/lib/invoices/pay-test-invoice';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(payTestInvoiceOp, ({ db, auth, params, body }) => payTestInvoice(db, { id: params.id!, tenantId: auth.tenantId }, body.amount)),
});
