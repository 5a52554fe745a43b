import { and, desc, eq, gte, isNotNull, isNull, lte, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { tenants, webhookDeliveries, webhookEndpoints } from '@/db/schema';
import type { Db } from '@/lib/db';

// An empty form field means "no filter", not 0 hours or an empty id.
const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

export const DeadLetterFilter = z.preprocess(
  (raw) => (raw && typeof raw === 'object' ? Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, blank(v)])) : raw),
  z.object({
    tenantId: z.string().trim().max(64).optional().catch(undefined),
    endpointId: z.string().trim().max(64).optional().catch(undefined),
    eventType: z.string().trim().max(64).optional().catch(undefined),
    /** Age of the dead letter in hours: at least / at most. */
    minAgeHours: z.coerce
      .number()
      .min(0)
      .max(24 * 365)
      .optional()
      .catch(undefined),
    maxAgeHours: z.coerce
      .number()
      .min(0)
      .max(24 * 365)
      .optional()
      .catch(undefined),
    /** open: not yet replayed; replayed: already sent again (shows the replay's outcome). */
    state: z.enum(['open', 'replayed', 'all']).default('open').catch('open'),
    limit: z.coerce.number().int().min(1).max(200).default(100).catch(100),
  }),
);
export type DeadLetterFilter = z.infer<typeof DeadLetterFilter>;

const replay = alias(webhookDeliveries, 'replay');

/** Dead-lettered deliveries across tenants (support only), newest first, with the outcome of their replay if any. */
export async function listDeadLetters(db: Db, f: DeadLetterFilter, now = new Date()) {
  const d = webhookDeliveries;
  const where: SQL[] = [eq(d.status, 'DEAD_LETTER')];
  if (f.tenantId) where.push(eq(d.tenantId, f.tenantId));
  if (f.endpointId) where.push(eq(d.endpointId, f.endpointId));
  if (f.eventType) where.push(eq(d.eventType, f.eventType));
  if (f.minAgeHours !== undefined) where.push(lte(d.updatedAt, new Date(now.getTime() - f.minAgeHours * 3_600_000)));
  if (f.maxAgeHours !== undefined) where.push(gte(d.updatedAt, new Date(now.getTime() - f.maxAgeHours * 3_600_000)));
  if (f.state === 'open') where.push(isNull(d.supersededBy));
  if (f.state === 'replayed') where.push(isNotNull(d.supersededBy));
  return db
    .select({
      id: d.id,
      tenantId: d.tenantId,
      tenantName: tenants.name,
      mode: d.mode,
      eventId: d.eventId,
      eventType: d.eventType,
      endpointId: d.endpointId,
      endpointUrl: webhookEndpoints.url,
      postBack: sql<boolean>`${d.postBackUrl} is not null`,
      attemptCount: d.attemptCount,
      lastError: d.lastError,
      createdAt: d.createdAt,
      deadAt: d.updatedAt,
      replayId: d.supersededBy,
      replayStatus: replay.status,
      replayError: replay.lastError,
    })
    .from(d)
    .innerJoin(tenants, eq(tenants.id, d.tenantId))
    .leftJoin(webhookEndpoints, eq(webhookEndpoints.id, d.endpointId))
    .leftJoin(replay, eq(replay.id, d.supersededBy))
    .where(and(...where))
    .orderBy(desc(d.updatedAt), desc(d.id))
    .limit(f.limit);
}
