import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getBalanceOp } from '@/lib/withdrawals/operations';
import { getBalanceSummary } from '@/lib/withdrawals/get-balance-summary';
import { DEFAULT_RAIL } from '@/lib/config/rails';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getBalanceOp, ({ db, auth, query }) => getBalanceSummary(db, auth, { currency: query.currency ?? DEFAULT_RAIL.token })),
});
