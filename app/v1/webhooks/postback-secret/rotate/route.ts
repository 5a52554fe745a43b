import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { rotatePostbackSecretOp } from '@/lib/webhooks/operations';
import { rotatePostbackSecret } from '@/lib/webhooks/rotate-postback-secret';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(rotatePostbackSecretOp, ({ db, auth, body }) => rotatePostbackSecret(db, auth, body)),
});
