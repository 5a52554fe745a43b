import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getPayout } from '@/lib/payouts/get-payout';
import { getPayoutOp } from '@/lib/payouts/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getPayoutOp, ({ db, auth, params }) => getPayout(db, auth, params.id!)),
});
