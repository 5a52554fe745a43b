import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { requireRail } from '@/lib/chain/network';
import { assertTenantRail } from '@/lib/tenants/tenant-rails';
import { createInvoice } from '@/lib/invoices/create-invoice';
import { createPayinInvoice } from '@/lib/exchange/create-payin-invoice';
import { priceInvoice } from '@/lib/fiat-rates/price-invoice';
import { listInvoices } from '@/lib/invoices/list-invoices';
import { createInvoiceOp, listInvoicesOp } from '@/lib/invoices/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(listInvoicesOp, ({ db, auth, query }) => listInvoices(db, auth, query)),
  POST: withApiKey(createInvoiceOp, async ({ db, auth, body }) => {
    const network = requireRail(auth.mode, body, ['depositMnemonic']);
    assertTenantRail(auth.tenant, auth.mode, body);
    // A fiat price becomes its USDT amount at a rate locked here (pricing: stored on the invoice).
    const { input, pricing } = await priceInvoice(db, auth.mode, body);
    return input.payinCurrency
      ? createPayinInvoice(db, auth, network, { ...input, payinCurrency: input.payinCurrency }, pricing)
      : createInvoice(db, auth, network, input, pricing);
  }),
});
