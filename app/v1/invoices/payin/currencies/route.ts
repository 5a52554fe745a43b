import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { listPayinCurrencies } from '@/lib/exchange/payin-endpoints';
import { payinCurrenciesOp } from '@/lib/exchange/payin-operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(payinCurrenciesOp, ({ db, auth, query }) => listPayinCurrencies(db, auth.mode, query)),
});
