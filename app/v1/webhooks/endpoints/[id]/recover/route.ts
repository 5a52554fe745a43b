import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { recoverWebhookDeliveriesOp } from '@/lib/webhooks/operations';
import { recoverWebhookDeliveries } from '@/lib/webhooks/recover-webhook-deliveries';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(recoverWebhookDeliveriesOp, ({ db, auth, params, body }) => recoverWebhookDeliveries(db, { id: params.id!, ...auth }, body)),
});
