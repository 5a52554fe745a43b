import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { createPortalSession } from '@/lib/portal/create-portal-session';
import { createPortalSessionOp } from '@/lib/subscriptions/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(createPortalSessionOp, ({ db, auth, body }) => createPortalSession(db, auth, body)),
});
