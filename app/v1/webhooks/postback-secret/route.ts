import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getPostbackSecretOp } from '@/lib/webhooks/operations';
import { getPostbackSecret } from '@/lib/webhooks/get-postback-secret';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getPostbackSecretOp, ({ db, auth }) => getPostbackSecret(db, auth)),
});
