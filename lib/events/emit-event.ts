import { events } from '@/db/schema';
import type { Db } from '@/lib/db';
import { insertRow } from '@/lib/db/insert-row';
import { eventRow } from './event-row';
import type { Mode } from '@/lib/tenants/mode';
import type { EventType } from './types';

type Event = typeof events.$inferSelect;

export interface EmitEventInput {
  tenantId: string;
  mode: Mode;
  type: EventType;
  /** The record the event is about (inv_, wd_, ord_...). */
  subjectId: string;
  data: Record<string, unknown>;
  /** Withdrawals with a postBackUrl: the event goes only to that URL, not to the tenant's endpoints. */
  postBackUrl?: string | null;
}

/**
 * Writes an event to the outbox. Call it with the transaction that makes the
 * state change it reports: both commit or neither does. Delivery (webhooks)
 * reads the outbox afterwards, at least once.
 */
export async function emitEvent(tx: Db, input: EmitEventInput): Promise<Event> {
  const values = eventRow(input);
  // Only the database's timestamp comes back: the outbox insert is on every money path, and a full RETURNING costs more to build and parse than the insert.
  const { createdAt } = await insertRow(tx, events, values, ['createdAt']);
  return { ...values, createdAt, dispatchedAt: null };
}
