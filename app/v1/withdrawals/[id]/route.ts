import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getWithdrawalOp } from '@/lib/withdrawals/operations';
import { getWithdrawalDetail } from '@/lib/withdrawals/get-withdrawal-detail';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getWithdrawalOp, async ({ db, auth, params }) => getWithdrawalDetail(db, { id: params.id!, ...auth })),
});
