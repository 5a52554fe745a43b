import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getPaymentLinkOrThrow } from '@/lib/payment-links/get-payment-link-or-throw';
import { getPaymentLinkOp } from '@/lib/payment-links/operations';
import { viewOf } from '@/lib/payment-links/view';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getPaymentLinkOp, async ({ db, auth, params }) => viewOf(db, await getPaymentLinkOrThrow(db, { id: params.id!, ...auth }))),
});
