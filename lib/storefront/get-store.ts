import { and, desc, eq } from 'drizzle-orm';
import { products, tenants } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { productView } from './views';

/** The public store page: the tenant's name and its active products of one mode. Null for unknown or suspended stores. */
export async function getStore(db: Db, slug: string, mode: Mode) {
  const [tenant] = await db.select({ id: tenants.id, name: tenants.name, status: tenants.status }).from(tenants).where(eq(tenants.slug, slug));
  if (!tenant || tenant.status !== 'active') return null;
  const rows = await db
    .select()
    .from(products)
    .where(and(eq(products.tenantId, tenant.id), eq(products.mode, mode), eq(products.active, true)))
    .orderBy(desc(products.createdAt))
    .limit(100);
  return { tenantId: tenant.id, name: tenant.name, mode, products: rows.map(productView) };
}
