import { route } from '@/lib/api/route';
import { apiKeyActor, auditMerchantAction } from '@/lib/audit/audit-merchant-action';
import { withApiKey } from '@/lib/api/with-api-key';
import { revokeApiKeyOp } from '@/lib/api-keys/operations';
import { revokeApiKey } from '@/lib/api-keys/revoke-api-key';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  DELETE: withApiKey(revokeApiKeyOp, async ({ db, auth, params }) => {
    const key = await revokeApiKey(db, { id: params.id!, ...auth });
    await auditMerchantAction(db, apiKeyActor(auth), auth, { action: 'api_key.revoked', key: { ...key, mode: auth.mode } });
    return key;
  }),
});
