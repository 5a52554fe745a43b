import { route } from '@/lib/api/route';
import { apiKeyActor } from '@/lib/audit/audit-merchant-action';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getInvoiceOrThrow } from '@/lib/invoices/get-invoice-or-throw';
import { createRefund } from '@/lib/refunds/create-refund';
import { createRefundOp, listRefundsOp } from '@/lib/refunds/operations';
import { refundList } from '@/lib/refunds/refund-list';
import { prepareWithdrawalControls } from '@/lib/withdrawal-controls/enforce-withdrawal-controls';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(listRefundsOp, async ({ db, auth, params }) => refundList(db, await getInvoiceOrThrow(db, { id: params.id!, ...auth }))),
  POST: withApiKey(createRefundOp, ({ db, auth, params, body }) =>
    createRefund(db, auth, params.id!, body, apiKeyActor(auth), prepareWithdrawalControls),
  ),
});
