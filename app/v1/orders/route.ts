import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { requireNetwork } from '@/lib/chain/network';
import { DEFAULT_RAIL } from '@/lib/config/rails';
import { createOrder } from '@/lib/storefront/create-order';
import { createOrderOp, listOrdersOp } from '@/lib/storefront/operations';
import { listOrders } from '@/lib/storefront/orders';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(listOrdersOp, ({ db, auth, query }) => listOrders(db, auth, query)),
  POST: withApiKey(createOrderOp, ({ db, auth, body }) =>
    createOrder(db, auth, requireNetwork(auth.mode, DEFAULT_RAIL.chain, ['depositMnemonic']), body),
  ),
});
