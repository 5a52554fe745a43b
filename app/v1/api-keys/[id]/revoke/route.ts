import { route } from '@/lib/api/route';
import { apiKeyActor } from '@/lib/audit/audit-merchant-action';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { revokeApiKeyOp } from '@/lib/api-keys/operations';
import { revokeApiKey } from '@/lib/api-keys/revoke-api-key';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  DELETE: withApiKey(revokeApiKeyOp, ({ db, auth, params }) =>
    revokeApiKey(db, { id: params.id!, tenantId: auth.tenantId, mode: auth.mode }, apiKeyActor(auth)),
  ),
});
