import type { events } from '@/db/schema';
import type { Db } from '@/lib/db';
import { outbox, type EmitEventInput } from './outbox';

export type { EmitEventInput };

type Event = typeof events.$inferSelect;

/**
 * Writes an event to the outbox (lib/events/outbox.ts). Call it with the
 * transaction that makes the state change it reports: both commit or neither
 * does. Delivery (webhooks) reads the outbox afterwards, at least once.
 */
export async function emitEvent(tx: Db, input: EmitEventInput): Promise<Event> {
  const [event] = await outbox.write(tx, [outbox.row(input)]);
  return event!;
}
