import type { Order } from '@/db/schema';
import type { Db } from '@/lib/db';
import { emitEvent } from '@/lib/events/emit-event';
import { orderEventData } from './views';

export function emitOrderEvent(tx: Db, o: Order, type: 'order.created' | 'order.paid' | 'order.fulfilled' | 'order.cancelled') {
  return emitEvent(tx, { tenantId: o.tenantId, mode: o.mode, type, subjectId: o.id, data: orderEventData(o) });
}
