import { route } from '@/lib/api/route';
import { apiKeyActor } from '@/lib/audit/audit-merchant-action';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { createPayout } from '@/lib/payouts/create-payout';
import { listPayouts } from '@/lib/payouts/list-payouts';
import { createPayoutOp, listPayoutsOp } from '@/lib/payouts/operations';
import { prepareWithdrawalControls } from '@/lib/withdrawal-controls/enforce-withdrawal-controls';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(listPayoutsOp, ({ db, auth, query }) => listPayouts(db, auth, query)),
  POST: withApiKey(createPayoutOp, ({ db, auth, body }) => createPayout(db, auth, body, apiKeyActor(auth), prepareWithdrawalControls)),
});
