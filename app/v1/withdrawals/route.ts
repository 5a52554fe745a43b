import { route } from '@/lib/api/route';
import { apiKeyActor } from '@/lib/audit/audit-merchant-action';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { createWithdrawalOp, listWithdrawalsOp } from '@/lib/withdrawals/operations';
import { prepareWithdrawalControls } from '@/lib/withdrawal-controls/enforce-withdrawal-controls';
import { createWithdrawal } from '@/lib/withdrawals/create-withdrawal';
import { listWithdrawals } from '@/lib/withdrawals/list-withdrawals';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(listWithdrawalsOp, ({ db, auth, query }) => listWithdrawals(db, auth, query)),
  POST: withApiKey(createWithdrawalOp, ({ db, auth, body }) => createWithdrawal(db, auth, body, apiKeyActor(auth), prepareWithdrawalControls)),
});
