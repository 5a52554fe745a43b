import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getOrderOp } from '@/lib/storefront/operations';
import { getOrderOrThrow } from '@/lib/storefront/orders';
import { orderView } from '@/lib/storefront/views';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getOrderOp, async ({ db, auth, params }) => orderView(await getOrderOrThrow(db, { id: params.id!, ...auth }))),
});
