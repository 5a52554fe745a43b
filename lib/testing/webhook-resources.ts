import { webhookEndpoints } from '@/db/schema';
import { outbox } from '@/lib/events/outbox';
import type { EventType } from '@/lib/events/types';
import { sealSecret } from '@/lib/crypto/secret-box';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';
import { newWebhookSecret } from '@/lib/webhooks/secret';

/**
 * A webhook endpoint row for tests (no URL checks; defaults to every event
 * type). Stored sealed like a real one; the row returned carries the secret in
 * clear, as the API would show it. `legacyPlaintext` stores it unsealed, as
 * rows written before encryption at rest were.
 */
export async function createTestWebhookEndpoint(
  db: Db,
  owner: { tenantId: string; mode: Mode },
  opts: { url?: string; eventsSubscribed?: string[]; enabled?: boolean; legacyPlaintext?: boolean; apiVersion?: string | null } = {},
) {
  const secret = newWebhookSecret();
  const [row] = await db
    .insert(webhookEndpoints)
    .values({
      id: newId('webhookEndpoint'),
      ...owner,
      url: opts.url ?? 'https://example.com/hooks',
      eventsSubscribed: opts.eventsSubscribed ?? ['*'],
      enabled: opts.enabled ?? true,
      apiVersion: opts.apiVersion ?? null,
      secret: opts.legacyPlaintext ? secret : sealSecret(secret),
    })
    .returning();
  return { ...row!, secret };
}

/** An outbox event for tests, already dispatched unless asked otherwise (so no worker picks it up by surprise). */
export async function createTestEvent(
  db: Db,
  owner: { tenantId: string; mode: Mode },
  opts: { type?: string; data?: Record<string, unknown>; dispatched?: boolean; postBackUrl?: string } = {},
) {
  const now = new Date();
  // Through the one outbox writer, as production writes events; any type string, so tests can write unknown ones.
  const input = {
    ...owner,
    type: (opts.type ?? 'invoice.created') as EventType,
    subjectId: 'inv_test',
    data: opts.data ?? { invoiceId: 'inv_test', amountExpected: '10.00' },
    postBackUrl: opts.postBackUrl ?? null,
  };
  const [row] = await outbox.write(db, [{ ...outbox.row(input, now), dispatchedAt: opts.dispatched === false ? null : now }]);
  return row!;
}
