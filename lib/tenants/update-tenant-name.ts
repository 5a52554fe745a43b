import { eq } from 'drizzle-orm';
import { tenants } from '@/db/schema';
import type { Db } from '@/lib/db';
import { TenantNameInput } from './schemas';

/** Renames a tenant (the dashboard's settings page); the slug of the store URL stays. */
export async function updateTenantName(db: Db, tenantId: string, input: unknown) {
  const { name } = TenantNameInput.parse(input);
  const [row] = await db
    .update(tenants)
    .set({ name, updatedAt: new Date() })
    .where(eq(tenants.id, tenantId))
    .returning({ id: tenants.id, name: tenants.name });
  return row!;
}
