import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { requireNetwork } from '@/lib/chain/network';
import { createInvoice } from '@/lib/invoices/create-invoice';
import { createPayinInvoice } from '@/lib/exchange/create-payin-invoice';
import { listInvoices } from '@/lib/invoices/list-invoices';
import { createInvoiceOp, listInvoicesOp } from '@/lib/invoices/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(listInvoicesOp, ({ db, auth, query }) => listInvoices(db, auth, query)),
  POST: withApiKey(createInvoiceOp, ({ db, auth, body }) =>
    body.payinCurrency
      ? createPayinInvoice(db, auth, requireNetwork(auth.mode, ['depositMnemonic']), { ...body, payinCurrency: body.payinCurrency })
      : createInvoice(db, auth, requireNetwork(auth.mode, ['depositMnemonic']), body),
  ),
});
