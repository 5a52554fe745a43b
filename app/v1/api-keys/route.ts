import { route } from '@/lib/api/route';
import { apiKeyActor } from '@/lib/audit/audit-merchant-action';
import { withApiKey } from '@/lib/api/with-api-key';
import { createApiKeyOp, listApiKeysOp } from '@/lib/api-keys/operations';
import { createApiKey } from '@/lib/api-keys/create-api-key';
import { listApiKeys } from '@/lib/api-keys/list-api-keys';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(listApiKeysOp, ({ db, auth }) => listApiKeys(db, auth)),
  POST: withApiKey(createApiKeyOp, ({ db, auth, body }) => createApiKey(db, { ...body, tenantId: auth.tenantId, mode: body.mode ?? auth.mode }, apiKeyActor(auth))),
});
