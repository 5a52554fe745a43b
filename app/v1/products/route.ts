import { route } from '@/lib/api/route';
import { withApiKey } from '@/lib/api-keys/with-api-key';
import { createProductOp, listProductsOp } from '@/lib/storefront/operations';
import { createProduct, listProducts } from '@/lib/storefront/products';

export const { GET, POST, PUT, PATCH, DELETE } = route({
  GET: withApiKey(listProductsOp, ({ db, auth, query }) => listProducts(db, auth, query)),
  POST: withApiKey(createProductOp, ({ db, auth, body }) => createProduct(db, auth, body)),
});
