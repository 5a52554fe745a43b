import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { deleteWebhookEndpointOp, getWebhookEndpointOp, updateWebhookEndpointOp } from '@/lib/webhooks/operations';
import { deleteWebhookEndpoint } from '@/lib/webhooks/delete-webhook-endpoint';
import { endpointView } from '@/lib/webhooks/endpoint-view';
import { getWebhookEndpointOrThrow } from '@/lib/webhooks/get-webhook-endpoint-or-throw';
import { updateWebhookEndpoint } from '@/lib/webhooks/update-webhook-endpoint';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getWebhookEndpointOp, async ({ db, auth, params }) =>
    endpointView(await getWebhookEndpointOrThrow(db, { id: params.id!, ...auth })),
  ),
  PATCH: withApiKey(updateWebhookEndpointOp, ({ db, auth, params, body }) => updateWebhookEndpoint(db, { id: params.id!, ...auth }, body)),
  DELETE: withApiKey(deleteWebhookEndpointOp, ({ db, auth, params }) => deleteWebhookEndpoint(db, { id: params.id!, ...auth })),
});
