import { route } from '@/lib/api/route';
import { apiKeyActor } from '@/lib/audit/audit-merchant-action';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { rotateWebhookSecretOp } from '@/lib/webhooks/operations';
import { rotateWebhookSecret } from '@/lib/webhooks/rotate-webhook-secret';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(rotateWebhookSecretOp, ({ db, auth, params, body }) =>
    rotateWebhookSecret(db, { id: params.id!, ...auth }, body, apiKeyActor(auth)),
  ),
});
