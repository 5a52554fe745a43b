import { eq } from 'drizzle-orm';
import { tenants, type Tenant } from '@/db/schema';
import { notFound } from '@/lib/api/errors';
import type { Db } from '@/lib/db';

/** The tenant fields the console changes (status, fee rates). */
export type TenantChange = Partial<Pick<Tenant, 'status' | 'invoiceFeeRate' | 'withdrawalFeeRate'>>;

/**
 * Changes a tenant in the caller's transaction: locks the row, lets `change`
 * look at it (and refuse, by throwing) and applies what it returns. Both rows
 * come back for the caller's audit entry. A missing tenant is a 404.
 */
export async function changeTenant(
  tx: Db,
  tenantId: string,
  change: (before: Tenant) => TenantChange,
  now: Date,
): Promise<{ before: Tenant; after: Tenant }> {
  const [before] = await tx.select().from(tenants).where(eq(tenants.id, tenantId)).for('update');
  if (!before) throw notFound('Tenant');
  const [after] = await tx
    .update(tenants)
    .set({ ...change(before), updatedAt: now })
    .where(eq(tenants.id, tenantId))
    .returning();
  return { before, after: after! };
}
