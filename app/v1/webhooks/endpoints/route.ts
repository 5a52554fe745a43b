import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { createWebhookEndpointOp, listWebhookEndpointsOp } from '@/lib/webhooks/operations';
import { createWebhookEndpoint } from '@/lib/webhooks/create-webhook-endpoint';
import { listWebhookEndpoints } from '@/lib/webhooks/list-webhook-endpoints';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(listWebhookEndpointsOp, ({ db, auth }) => listWebhookEndpoints(db, auth)),
  POST: withApiKey(createWebhookEndpointOp, ({ db, auth, body }) => createWebhookEndpoint(db, auth, body)),
});
