import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { quotePayin } from '@/lib/exchange/payin-endpoints';
import { payinQuoteOp } from '@/lib/exchange/payin-operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(payinQuoteOp, ({ db, auth, body }) => quotePayin(db, auth, body)),
});
