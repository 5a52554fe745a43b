import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { listWebhookDeliveriesOp } from '@/lib/webhooks/operations';
import { listWebhookDeliveries } from '@/lib/webhooks/list-webhook-deliveries';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(listWebhookDeliveriesOp, ({ db, auth, query }) => listWebhookDeliveries(db, auth, query)),
});
