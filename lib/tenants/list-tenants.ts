import { desc } from 'drizzle-orm';
import { tenants } from '@/db/schema';
import type { Db } from '@/lib/db';

export async function listTenants(db: Db) {
  return db.select().from(tenants).orderBy(desc(tenants.createdAt));
}
