import { route } from '@/lib/api/route';
import { apiKeyActor, auditMerchantAction } from '@/lib/audit/audit-merchant-action';
import { withApiKey } from '@/lib/api/with-api-key';
import { rotateWebhookSecretOp } from '@/lib/webhooks/operations';
import { rotateWebhookSecret } from '@/lib/webhooks/rotate-webhook-secret';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(rotateWebhookSecretOp, async ({ db, auth, params, body }) => {
    const rotated = await rotateWebhookSecret(db, { id: params.id!, ...auth }, body);
    await auditMerchantAction(db, apiKeyActor(auth), auth, { action: 'webhook_endpoint.secret_rotated', endpoint: rotated, graceHours: body.graceHours });
    return rotated;
  }),
});
