import type { Withdrawal } from '@/db/schema';
import type { Db } from '@/lib/db';
import { emitEvent, type EmitEventInput } from '@/lib/events/emit-event';
import { withdrawalEventData } from './view';

/** withdrawal.* events; with a postBackUrl they go only to that URL (webhook delivery honours it). */
export function emitWithdrawalEvent(tx: Db, w: Withdrawal, type: WithdrawalEventType) {
  return emitEvent(tx, withdrawalEvent(w, type));
}

type WithdrawalEventType = 'withdrawal.created' | 'withdrawal.completed' | 'withdrawal.failed';

/** The event emitWithdrawalEvent writes (createWithdrawal puts it in its single statement). */
export function withdrawalEvent(w: Withdrawal, type: WithdrawalEventType): EmitEventInput {
  return { tenantId: w.tenantId, mode: w.mode, type, subjectId: w.id, data: withdrawalEventData(w), postBackUrl: w.postBackUrl };
}
