import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { cancelSubscription } from '@/lib/subscriptions/cancel-subscription';
import { cancelSubscriptionOp } from '@/lib/subscriptions/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(cancelSubscriptionOp, ({ db, auth, params, body }) => cancelSubscription(db, { id: params.id!, ...auth }, body)),
});
