import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api/with-api-key';
import { revokeApiKeyOp } from '@/lib/api-keys/operations';
import { revokeApiKey } from '@/lib/api-keys/revoke-api-key';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  DELETE: withApiKey(revokeApiKeyOp, ({ db, auth, params }) => revokeApiKey(db, { id: params.id!, ...auth })),
});
