import { route } from '@/lib/api/route';
import { apiKeyActor } from '@/lib/audit/audit-merchant-action';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { createRefundClaim } from '@/lib/refunds/claims/create-refund-claim';
import { listRefundClaims } from '@/lib/refunds/claims/list-refund-claims';
import { createRefundClaimOp, listRefundClaimsOp } from '@/lib/refunds/claims/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(listRefundClaimsOp, ({ db, auth, query }) => listRefundClaims(db, auth, query)),
  POST: withApiKey(createRefundClaimOp, ({ db, auth, body }) => createRefundClaim(db, auth, body, apiKeyActor(auth))),
});
