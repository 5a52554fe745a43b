import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { listRefundRequests } from '@/lib/refunds/requests/list-refund-requests';
import { listRefundRequestsOp } from '@/lib/refunds/requests/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(listRefundRequestsOp, ({ db, auth, query }) => listRefundRequests(db, auth, query)),
});
