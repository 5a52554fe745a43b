import type { Db } from '@/lib/db';
import { DEV_MNEMONIC } from '@/lib/config/network-env';
import type { Mode } from '@/lib/mode';
import { createOrder } from '@/lib/storefront/create-order';
import { createProduct } from '@/lib/storefront/products';

export function createTestProduct(db: Db, owner: { tenantId: string; mode: Mode }, price = '10.00') {
  return createProduct(db, owner, { name: 'Test product', price, active: true });
}

export async function createTestOrder(db: Db, owner: { tenantId: string; mode: Mode }) {
  const product = await createTestProduct(db, owner);
  return createOrder(
    db,
    owner,
    { chain: 'BSC', chainId: 31337, confirmations: 5, depositMnemonic: DEV_MNEMONIC },
    {
      items: [{ productId: product.id, quantity: 2 }],
      customerEmail: 'buyer@example.com',
    },
  );
}
