import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { getProductOp, updateProductOp } from '@/lib/storefront/operations';
import { getProductOrThrow, updateProduct } from '@/lib/storefront/products';
import { productView } from '@/lib/storefront/views';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(getProductOp, async ({ db, auth, params }) => productView(await getProductOrThrow(db, { id: params.id!, ...auth }))),
  PATCH: withApiKey(updateProductOp, ({ db, auth, params, body }) => updateProduct(db, { id: params.id!, ...auth }, body)),
});
