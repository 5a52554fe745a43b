import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getOrderDetails } from '@/lib/exchange/get-order-details';
import { exchangeOrderDetailsOp } from '@/lib/exchange/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(exchangeOrderDetailsOp, ({ db, auth, body }) => getOrderDetails(db, auth, body)),
});
