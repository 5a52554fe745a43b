import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { cancelOrderOp } from '@/lib/storefront/operations';
import { cancelOrder } from '@/lib/storefront/orders';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(cancelOrderOp, ({ db, auth, params }) => cancelOrder(db, { id: params.id!, ...auth })),
});
