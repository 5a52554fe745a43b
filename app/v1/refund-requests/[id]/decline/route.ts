import { route } from '@/lib/api/route';
import { apiKeyActor } from '@/lib/audit/audit-merchant-action';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { declineRefundRequest } from '@/lib/refunds/requests/decide-refund-request';
import { declineRefundRequestOp } from '@/lib/refunds/requests/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(declineRefundRequestOp, ({ db, auth, params, body }) => declineRefundRequest(db, auth, params.id!, body, apiKeyActor(auth))),
});
