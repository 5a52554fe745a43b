import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { fulfillOrderOp } from '@/lib/storefront/operations';
import { fulfillOrder } from '@/lib/storefront/orders';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(fulfillOrderOp, ({ db, auth, params }) => fulfillOrder(db, { id: params.id!, ...auth })),
});
