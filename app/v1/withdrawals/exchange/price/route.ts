import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getPrice } from '@/lib/exchange/get-price';
import { exchangePriceOp } from '@/lib/exchange/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(exchangePriceOp, ({ db, auth, body }) => getPrice(db, auth, body)),
});
