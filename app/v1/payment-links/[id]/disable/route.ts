import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { disablePaymentLink } from '@/lib/payment-links/disable-payment-link';
import { disablePaymentLinkOp } from '@/lib/payment-links/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  POST: withApiKey(disablePaymentLinkOp, ({ db, auth, params }) => disablePaymentLink(db, { id: params.id!, ...auth })),
});
