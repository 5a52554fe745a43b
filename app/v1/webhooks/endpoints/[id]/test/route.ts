import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { testWebhookEndpointOp } from '@/lib/webhooks/operations';
import { testWebhookEndpoint } from '@/lib/webhooks/test-webhook-endpoint';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(testWebhookEndpointOp, ({ db, auth, params }) => testWebhookEndpoint(db, { id: params.id!, ...auth })),
});
