import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getMaxWithdrawalOp } from '@/lib/withdrawals/operations';
import { getMaxWithdrawal } from '@/lib/withdrawals/get-max-withdrawal';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getMaxWithdrawalOp, ({ db, auth, query }) => getMaxWithdrawal(db, auth, query)),
});
