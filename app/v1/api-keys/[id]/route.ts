import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { updateApiKeyOp } from '@/lib/api-keys/operations';
import { updateApiKey } from '@/lib/api-keys/update-api-key';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  PATCH: withApiKey(updateApiKeyOp, ({ db, auth, params, body }) => updateApiKey(db, { id: params.id!, ...auth }, body)),
});
