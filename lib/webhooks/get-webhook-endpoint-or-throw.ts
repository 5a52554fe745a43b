import { and, eq, isNull } from 'drizzle-orm';
import { webhookEndpoints } from '@/db/schema';
import type { Db } from '@/lib/db';
import { notFound } from '@/lib/api/errors';
import type { Mode } from '@/lib/mode';

/** An endpoint of this tenant and mode; another tenant's, the other mode's, a deleted or unknown one is a 404. */
export async function getWebhookEndpointOrThrow(db: Db, where: { id: string; tenantId: string; mode: Mode }, opts: { forUpdate?: boolean } = {}) {
  const q = db
    .select()
    .from(webhookEndpoints)
    .where(
      and(
        eq(webhookEndpoints.id, where.id),
        eq(webhookEndpoints.tenantId, where.tenantId),
        eq(webhookEndpoints.mode, where.mode),
        isNull(webhookEndpoints.deletedAt),
      ),
    );
  const [row] = opts.forUpdate ? await q.for('update') : await q;
  if (!row) throw notFound('Webhook endpoint');
  return row;
}
