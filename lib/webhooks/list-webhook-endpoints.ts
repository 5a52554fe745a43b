import { and, desc, eq, isNull } from 'drizzle-orm';
import { webhookEndpoints } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { endpointView } from './endpoint-view';

/** A tenant's endpoints of one mode, newest first, without secrets (at most 20, so no paging). */
export async function listWebhookEndpoints(db: Db, owner: { tenantId: string; mode: Mode }) {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.tenantId, owner.tenantId), eq(webhookEndpoints.mode, owner.mode), isNull(webhookEndpoints.deletedAt)))
    .orderBy(desc(webhookEndpoints.createdAt), desc(webhookEndpoints.id));
  const now = new Date();
  return { data: rows.map((r) => endpointView(r, now)) };
}
