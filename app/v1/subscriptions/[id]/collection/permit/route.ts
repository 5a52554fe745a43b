import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getCollection } from '@/lib/subscriptions/collect/get-collection';
import { turnOnCollectionByPermit } from '@/lib/subscriptions/collect/turn-on-collection';
import { setUpSubscriptionCollectionByPermitOp } from '@/lib/subscriptions/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(setUpSubscriptionCollectionByPermitOp, async ({ db, auth, params, body }) => {
    const kept = await turnOnCollectionByPermit(db, { id: params.id!, ...auth }, body);
    return getCollection(db, { id: params.id!, ...auth }, { payer: kept.payer });
  }),
});
