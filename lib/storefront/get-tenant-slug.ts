import { eq } from 'drizzle-orm';
import { tenants } from '@/db/schema';
import type { Db } from '@/lib/db';

/** The store page's URL name of a tenant (the session's tenant carries no slug). */
export async function getTenantSlug(db: Db, tenantId: string): Promise<string> {
  const [row] = await db.select({ slug: tenants.slug }).from(tenants).where(eq(tenants.id, tenantId));
  return row?.slug ?? '';
}
