import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getPlanOrThrow } from '@/lib/subscriptions/get-plan-or-throw';
import { getPlanOp } from '@/lib/subscriptions/operations';
import { planView } from '@/lib/subscriptions/view';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getPlanOp, async ({ db, auth, params }) => planView(await getPlanOrThrow(db, { id: params.id!, ...auth }))),
});
