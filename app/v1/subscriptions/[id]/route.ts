import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getSubscription } from '@/lib/subscriptions/load-subscription';
import { getSubscriptionOp } from '@/lib/subscriptions/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getSubscriptionOp, ({ db, auth, params }) => getSubscription(db, { id: params.id!, ...auth })),
});
