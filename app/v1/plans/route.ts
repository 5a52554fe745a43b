import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { createPlan } from '@/lib/subscriptions/create-plan';
import { listPlans } from '@/lib/subscriptions/list-plans';
import { createPlanOp, listPlansOp } from '@/lib/subscriptions/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(listPlansOp, ({ db, auth, query }) => listPlans(db, auth, query)),
  POST: withApiKey(createPlanOp, ({ db, auth, body }) => createPlan(db, auth, body)),
});
