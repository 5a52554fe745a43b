import type { events } from '@/db/schema';
import { newId } from '@/lib/ids';
import type { EmitEventInput } from './emit-event';

/** The outbox row of an event (createdAt and dispatchedAt come from their defaults). */
export function eventRow(input: EmitEventInput) {
  return {
    id: newId('event'),
    tenantId: input.tenantId,
    mode: input.mode,
    type: input.type,
    subjectId: input.subjectId,
    data: input.data,
    postBackUrl: input.postBackUrl ?? null,
  } satisfies typeof events.$inferInsert;
}
