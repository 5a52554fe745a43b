import { route } from '@/lib/api/route';
import { apiKeyActor } from '@/lib/audit/audit-merchant-action';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { approveRefundRequest } from '@/lib/refunds/requests/decide-refund-request';
import { approveRefundRequestOp } from '@/lib/refunds/requests/operations';
import { prepareWithdrawalControls } from '@/lib/withdrawal-controls/enforce-withdrawal-controls';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(approveRefundRequestOp, ({ db, auth, params, body }) =>
    approveRefundRequest(db, auth, params.id!, body, apiKeyActor(auth), prepareWithdrawalControls),
  ),
});
