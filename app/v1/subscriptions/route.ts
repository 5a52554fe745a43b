import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { createSubscription } from '@/lib/subscriptions/create-subscription';
import { listSubscriptions } from '@/lib/subscriptions/list-subscriptions';
import { createSubscriptionOp, listSubscriptionsOp } from '@/lib/subscriptions/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(listSubscriptionsOp, ({ db, auth, query }) => listSubscriptions(db, auth, query)),
  POST: withApiKey(createSubscriptionOp, ({ db, auth, body }) => createSubscription(db, auth, body)),
});
