import { and, eq } from 'drizzle-orm';
import { apiKeys } from '@/db/schema';
import type { Db } from '@/lib/db';
import { notFound } from '@/lib/api/errors';
import type { Mode } from '@/lib/mode';

/** Loads a key of this tenant and mode; anything else (other tenant, other mode, unknown) is a 404. */
export async function getApiKeyOrThrow(db: Db, where: { id: string; tenantId: string; mode: Mode }, opts: { forUpdate?: boolean } = {}) {
  const q = db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.id, where.id), eq(apiKeys.tenantId, where.tenantId), eq(apiKeys.mode, where.mode)));
  const [row] = opts.forUpdate ? await q.for('update') : await q;
  if (!row) throw notFound('API key');
  return row;
}
