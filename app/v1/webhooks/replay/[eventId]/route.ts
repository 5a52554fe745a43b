import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { replayWebhookEventOp } from '@/lib/webhooks/operations';
import { replayEvent } from '@/lib/webhooks/replay-event';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(replayWebhookEventOp, ({ db, auth, params, body }) => replayEvent(db, auth, params.eventId!, body)),
});
