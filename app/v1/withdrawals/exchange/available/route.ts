import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getExchangeConfig } from '@/lib/exchange/config';
import { exchangeAvailableOp } from '@/lib/exchange/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(exchangeAvailableOp, async ({ auth }) => ({ available: getExchangeConfig(auth.mode) !== null })),
});
