import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getCollection } from '@/lib/subscriptions/collect/get-collection';
import { getSubscriptionCollectionOp } from '@/lib/subscriptions/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getSubscriptionCollectionOp, ({ db, auth, params, query }) =>
    getCollection(db, { id: params.id!, ...auth }, { payer: query.payer }),
  ),
});
