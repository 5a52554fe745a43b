import { route } from '@/lib/api/route';
import { apiKeyActor } from '@/lib/audit/audit-merchant-action';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { createRefundClaim } from '@/lib/refund-claims/create-refund-claim';
import { listRefundClaims } from '@/lib/refund-claims/list-refund-claims';
import { createRefundClaimOp, listRefundClaimsOp } from '@/lib/refund-claims/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(listRefundClaimsOp, ({ db, auth, query }) => listRefundClaims(db, auth, query)),
  POST: withApiKey(createRefundClaimOp, ({ db, auth, body }) => createRefundClaim(db, auth, body, apiKeyActor(auth))),
});
