import { route } from '@/lib/api/route';
import { apiKeyActor, auditMerchantAction } from '@/lib/audit/audit-merchant-action';
import { withApiKey } from '@/lib/api/with-api-key';
import { createExchangeWithdrawal } from '@/lib/exchange/create-exchange-withdrawal';
import { exchangeWithdrawalOp } from '@/lib/exchange/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(exchangeWithdrawalOp, async ({ db, auth, body }) => {
    const result = await createExchangeWithdrawal(db, auth, body);
    await auditMerchantAction(db, apiKeyActor(auth), auth, { action: 'withdrawal.created', withdrawal: result.data.withdrawal, kind: 'exchange' });
    return result;
  }),
});
