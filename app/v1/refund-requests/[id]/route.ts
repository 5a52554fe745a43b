import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getRefundRequestOrThrow } from '@/lib/refunds/requests/get-refund-request-or-throw';
import { getRefundRequestOp } from '@/lib/refunds/requests/operations';
import { refundRequestView } from '@/lib/refunds/requests/view';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getRefundRequestOp, async ({ db, auth, params }) =>
    refundRequestView(await getRefundRequestOrThrow(db, { id: params.id!, ...auth })),
  ),
});
