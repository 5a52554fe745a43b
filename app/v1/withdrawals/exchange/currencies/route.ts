import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { listExchangeCurrencies } from '@/lib/exchange/list-exchange-currencies';
import { exchangeCurrenciesOp } from '@/lib/exchange/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(exchangeCurrenciesOp, ({ db, auth }) => listExchangeCurrencies(db, auth.mode)),
});
