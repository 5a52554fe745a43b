import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getCollection } from '@/lib/subscriptions/collect/get-collection';
import { turnOnCollection } from '@/lib/subscriptions/collect/turn-on-collection';
import { getSubscriptionCollectionOp, setUpSubscriptionCollectionOp } from '@/lib/subscriptions/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getSubscriptionCollectionOp, ({ db, auth, params, query }) =>
    getCollection(db, { id: params.id!, ...auth }, { payer: query.payer }),
  ),
  POST: withApiKey(setUpSubscriptionCollectionOp, async ({ db, auth, params, body }) => {
    const kept = await turnOnCollection(db, { id: params.id!, ...auth }, body.payer);
    return getCollection(db, { id: params.id!, ...auth }, { payer: kept.payer });
  }),
});
