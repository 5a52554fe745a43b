import { route } from '@/lib/api/route';
import { apiKeyActor } from '@/lib/audit/audit-merchant-action';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { cancelRefundClaim } from '@/lib/refunds/claims/cancel-refund-claim';
import { cancelRefundClaimOp } from '@/lib/refunds/claims/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(cancelRefundClaimOp, ({ db, auth, params }) => cancelRefundClaim(db, auth, params.id!, apiKeyActor(auth))),
});
