import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getBalanceOp } from '@/lib/withdrawals/operations';
import { getBalanceSummary } from '@/lib/withdrawals/get-balance-summary';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getBalanceOp, ({ db, auth, query }) => getBalanceSummary(db, auth, query)),
});
