import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getWithdrawalOp } from '@/lib/withdrawals/operations';
import { getWithdrawalOrThrow } from '@/lib/withdrawals/get-withdrawal-or-throw';
import { withdrawalView } from '@/lib/withdrawals/view';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getWithdrawalOp, async ({ db, auth, params }) => withdrawalView(await getWithdrawalOrThrow(db, { id: params.id!, ...auth }))),
});
