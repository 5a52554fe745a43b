import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { revealPostbackSecretOp } from '@/lib/webhooks/operations';
import { revealPostbackSecret } from '@/lib/webhooks/reveal-postback-secret';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(revealPostbackSecretOp, ({ db, auth }) => revealPostbackSecret(db, auth)),
});
