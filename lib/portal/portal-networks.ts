import { eq } from 'drizzle-orm';
import { tenants } from '@/db/schema';
import { splitRailId, type ChainKey } from '@/lib/config/rails';
import type { Db } from '@/lib/db';
import { tenantRails } from '@/lib/tenants/tenant-rails';
import type { PortalCustomer } from './portal-session';

/** The networks the merchant accepts for each token (its rails in the session's mode), for the portal's network picker. */
export async function portalNetworks(db: Db, customer: PortalCustomer): Promise<Record<string, ChainKey[]>> {
  const [tenant] = await db.select({ rails: tenants.rails }).from(tenants).where(eq(tenants.id, customer.tenantId));
  const out: Record<string, ChainKey[]> = {};
  for (const id of tenantRails(tenant!, customer.mode)) {
    const { chain, token } = splitRailId(id);
    (out[token] ??= []).push(chain);
  }
  return out;
}
