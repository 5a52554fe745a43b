import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { createPaymentLink } from '@/lib/payment-links/create-payment-link';
import { listPaymentLinks } from '@/lib/payment-links/list-payment-links';
import { createPaymentLinkOp, listPaymentLinksOp } from '@/lib/payment-links/operations';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(listPaymentLinksOp, ({ db, auth, query }) => listPaymentLinks(db, auth, query)),
  POST: withApiKey(createPaymentLinkOp, ({ db, auth, body }) => createPaymentLink(db, auth, body)),
});
