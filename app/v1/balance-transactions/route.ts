import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { listBalanceTransactions } from '@/lib/statements/list-balance-transactions';
import { listBalanceTransactionsOp } from '@/lib/statements/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(listBalanceTransactionsOp, ({ db, auth, query }) => listBalanceTransactions(db, auth, query)),
});
