import { route } from '@/lib/api/route';
import { apiKeyActor } from '@/lib/audit/audit-merchant-action';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { createExchangeWithdrawal } from '@/lib/exchange/create-exchange-withdrawal';
import { exchangeWithdrawalOp } from '@/lib/exchange/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(exchangeWithdrawalOp, ({ db, auth, body }) => createExchangeWithdrawal(db, auth, body, apiKeyActor(auth))),
});
