import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api/with-api-key';
import { rotateWebhookSecretOp } from '@/lib/webhooks/operations';
import { rotateWebhookSecret } from '@/lib/webhooks/rotate-webhook-secret';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(rotateWebhookSecretOp, ({ db, auth, params, body }) => rotateWebhookSecret(db, { id: params.id!, ...auth }, body)),
});
