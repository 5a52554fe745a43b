import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { createManualOrder } from '@/lib/exchange/create-manual-order';
import { exchangeOrderOp } from '@/lib/exchange/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(exchangeOrderOp, ({ db, auth, body }) => createManualOrder(db, auth, body)),
});
