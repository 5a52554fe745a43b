import { desc, ilike, or, eq } from 'drizzle-orm';
import { tenants } from '@/db/schema';
import type { Db } from '@/lib/db';

/** Every tenant for the console's list, optionally filtered by name, slug or id. */
export async function listConsoleTenants(db: Db, q?: string) {
  const term = q?.trim();
  const where = term
    ? or(ilike(tenants.name, `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`), eq(tenants.slug, term), eq(tenants.id, term))
    : undefined;
  return db.select().from(tenants).where(where).orderBy(desc(tenants.createdAt)).limit(500);
}
