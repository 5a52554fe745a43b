import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getInvoice } from '@/lib/invoices/get-invoice';
import { getInvoiceOp } from '@/lib/invoices/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getInvoiceOp, ({ db, auth, params }) => getInvoice(db, { id: params.id!, tenantId: auth.tenantId, mode: auth.mode })),
});
