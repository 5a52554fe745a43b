import { route } from '@/lib/api/route';
import { apiKeyActor } from '@/lib/audit/audit-merchant-action';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { createApiKeyOp, listApiKeysOp } from '@/lib/api-keys/operations';
import { createApiKeyWithKey } from '@/lib/api-keys/create-api-key';
import { listApiKeys } from '@/lib/api-keys/list-api-keys';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(listApiKeysOp, ({ db, auth }) => listApiKeys(db, auth)),
  POST: withApiKey(createApiKeyOp, ({ db, auth, body }) => createApiKeyWithKey(db, auth, body, apiKeyActor(auth))),
});
