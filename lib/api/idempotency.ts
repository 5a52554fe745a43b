import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { idempotencyRequests } from '@/db/schema';
import type { Db } from '@/lib/db';
import type { Mode } from '@/lib/mode';
import { ApiError } from './errors';
import type { Operation } from './operation';

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
      await db.update(idempotencyRequests).set({ state: 'done', responseStatus: status, responseBody: body }).where(where);
    },
    // A server error or a 429 (come back later) is not remembered: the client retries with the same key (see isRetryLater).
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
    .where(
      and(
        where,
        eq(idempotencyRequests.state, 'in_flight'),
        sql`${idempotencyRequests.lockedAt} < now() - make_interval(secs => ${STALE_LOCK_MS / 1000})`,
      ),
    )
    .returning({ key: idempotencyRequests.idempotencyKey });
  if (taken.length > 0) return proceed;
  throw new ApiError('idempotency_key_in_use', 'A request with this Idempotency-Key is still being processed. Retry shortly.');
}

/**
 * What the idempotency record keeps of a response. A successful response of an
 * operation with `secretFields` is kept without them: the secret is shown once
 * and never sits in this table (24 hours of clear secrets otherwise).
 */
export function storableResponse(op: Pick<Operation, 'secretFields'>, status: number, text: string): string {
  if (!op.secretFields?.length || status >= 400) return text;
  const body = JSON.parse(text) as Record<string, unknown>;
  for (const field of op.secretFields) delete body[field];
  return JSON.stringify(body);
}

/**
 * A replay of a successful secret-issuing request does not show the secret
 * again (it is not kept, and a second showing is exactly what the postback
 * reveal refuses): it names what the first request created so the client can
 * revoke or rotate it.
 */
export function assertReplayable(
  op: Pick<Operation, 'secretFields' | 'id' | 'replayWithoutSecrets'>,
  stored: { status: number; body: string },
): void {
  if (!op.secretFields?.length || op.replayWithoutSecrets || stored.status >= 400) return;
  const id = (JSON.parse(stored.body) as { id?: unknown }).id;
  const what = typeof id === 'string' ? ` (${id})` : '';
  throw new ApiError(
    'secret_not_replayable',
    `This request already succeeded${what}, and its response carried a secret that is shown only once and is not kept. ` +
      'Revoke or rotate it and make a new request with a new Idempotency-Key.',
    typeof id === 'string' ? [{ path: 'id', message: id }] : undefined,
  );
}

/**
 * Answers that mean "not now" rather than "this is the outcome": a server
 * error, or a 429 (a rate limit or fair share, with Retry-After). Stripe does
 * not save these for a key either; a retry with the same key runs again.
 */
export const isRetryLater = (status: number) => status >= 500 || status === 429;
