import { and, desc, eq } from 'drizzle-orm';
import { apiKeys } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { apiKeyView } from './view';

export async function listApiKeys(db: Db, where: { tenantId: string; mode: Mode }) {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.tenantId, where.tenantId), eq(apiKeys.mode, where.mode)))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  const now = new Date();
  return { data: rows.map((r) => apiKeyView(r, now)) };
}
