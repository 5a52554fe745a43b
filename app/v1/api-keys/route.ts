import { route } from '@/lib/api/route';
import { apiKeyActor, auditMerchantAction } from '@/lib/audit/audit-merchant-action';
import { withApiKey } from '@/lib/api/with-api-key';
import { createApiKeyOp, listApiKeysOp } from '@/lib/api-keys/operations';
import { createApiKey } from '@/lib/api-keys/create-api-key';
import { listApiKeys } from '@/lib/api-keys/list-api-keys';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(listApiKeysOp, ({ db, auth }) => listApiKeys(db, auth)),
  POST: withApiKey(createApiKeyOp, async ({ db, auth, body }) => {
    const created = await createApiKey(db, { ...body, tenantId: auth.tenantId, mode: body.mode ?? auth.mode });
    await auditMerchantAction(db, apiKeyActor(auth), { tenantId: auth.tenantId, mode: created.mode }, { action: 'api_key.created', key: created });
    return created;
  }),
});
