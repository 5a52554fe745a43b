import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { idempotencyRequests } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/tenants/mode';
import { ApiError } from './errors';

/** An in-flight entry older than this belongs to a crashed request and may be taken over. */
const STALE_LOCK_MS = 60_000;

export type IdempotencyStart =
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'proceed'; finish: (status: number, body: string) => Promise<void>; release: () => Promise<void> };

export async function beginIdempotentRequest(
  db: Db,
  scope: { tenantId: string; mode: Mode },
  key: string,
  request: { method: string; path: string; rawBody: string },
): Promise<IdempotencyStart> {
  if (key.length === 0 || key.length > 255) {
    throw new ApiError('validation_failed', 'Idempotency-Key must be 1 to 255 characters.', [
      { path: 'Idempotency-Key', message: 'must be 1 to 255 characters' },
    ]);
  }
  const requestHash = createHash('sha256').update(`${request.method} ${request.path}\n${request.rawBody}`).digest('hex');
  const where = and(
    eq(idempotencyRequests.tenantId, scope.tenantId),
    eq(idempotencyRequests.mode, scope.mode),
    eq(idempotencyRequests.idempotencyKey, key),
  );
  const proceed: IdempotencyStart = {
    kind: 'proceed',
    finish: async (status, body) => {
      await db
        .update(idempotencyRequests)
        .set({ state: 'done', responseStatus: status, responseBody: body })
        .where(where);
    },
    // A server error is not remembered: the client may retry with the same key.
    release: async () => {
      await db.delete(idempotencyRequests).where(where);
    },
  };

  const inserted = await db
    .insert(idempotencyRequests)
    .values({ tenantId: scope.tenantId, mode: scope.mode, idempotencyKey: key, requestHash, state: 'in_flight' })
    .onConflictDoNothing()
    .returning({ key: idempotencyRequests.idempotencyKey });
  if (inserted.length > 0) return proceed;

  const [existing] = await db.select().from(idempotencyRequests).where(where);
  if (!existing) return beginIdempotentRequest(db, scope, key, request); // purged meanwhile
  const expired = Date.now() - existing.createdAt.getTime() > 24 * 3_600_000;
  if (expired) {
    await db.delete(idempotencyRequests).where(and(where, eq(idempotencyRequests.createdAt, existing.createdAt)));
    return beginIdempotentRequest(db, scope, key, request);
  }
  if (existing.requestHash !== requestHash) {
    throw new ApiError(
      'idempotency_key_reused',
      'This Idempotency-Key was already used with a different request (method, path or body). Use a new key.',
    );
  }
  if (existing.state === 'done') {
    return { kind: 'replay', status: existing.responseStatus!, body: existing.responseBody! };
  }
  // In flight: refuse unless its owner evidently died.
  const taken = await db
    .update(idempotencyRequests)
    .set({ lockedAt: new Date() })
    .where(and(where, eq(idempotencyRequests.state, 'in_flight'), sql`${idempotencyRequests.lockedAt} < now() - make_interval(secs => ${STALE_LOCK_MS / 1000})`))
    .returning({ key: idempotencyRequests.idempotencyKey });
  if (taken.length > 0) return proceed;
  throw new ApiError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed. Retry shortly.');
}
