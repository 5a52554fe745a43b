import type { Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';
import { emitEvent } from '@/lib/events/emit-event';
import { withdrawalEventData } from './view';

/** withdrawal.* events; with a postBackUrl they go only to that URL (webhook delivery honours it). */
export function emitWithdrawalEvent(tx: Db, w: Withdrawal, type: 'withdrawal.created' | 'withdrawal.completed' | 'withdrawal.failed') {
  return emitEvent(tx, {
    tenantId: w.tenantId,
    mode: w.mode,
    type,
    subjectId: w.id,
    data: withdrawalEventData(w),
    postBackUrl: w.postBackUrl,
  });
}
