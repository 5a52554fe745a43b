import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getMaxWithdrawalOp } from '@/lib/withdrawals/operations';
import { getMaxWithdrawal } from '@/lib/withdrawals/get-max-withdrawal';
import { DEFAULT_RAIL } from '@/lib/config/rails';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getMaxWithdrawalOp, ({ db, auth, query }) =>
    getMaxWithdrawal(db, auth, { ...query, currency: query.currency ?? DEFAULT_RAIL.token }),
  ),
});
