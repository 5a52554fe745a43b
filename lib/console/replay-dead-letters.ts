import { ApiError } from '@/lib/api/errors';
import type { AuditActor } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import { replayDeadLetter } from './replay-dead-letter';

export const MAX_REPLAY_SELECTION = 100;

export type ReplayOutcome = { deliveryId: string; ok: true; replayDeliveryId: string } | { deliveryId: string; ok: false; error: string };

/** Replays a selection one delivery at a time: one refusal (already replayed, endpoint disabled) does not stop the rest. */
export async function replayDeadLetters(db: Db, actor: AuditActor, deliveryIds: string[]): Promise<ReplayOutcome[]> {
  const ids = [...new Set(deliveryIds)];
  if (ids.length === 0) throw new ApiError('validation_failed', 'Select at least one dead letter to replay.');
  if (ids.length > MAX_REPLAY_SELECTION) throw new ApiError('validation_failed', `Replay at most ${MAX_REPLAY_SELECTION} deliveries at a time.`);
  const out: ReplayOutcome[] = [];
  for (const id of ids) {
    try {
      const r = await replayDeadLetter(db, actor, id);
      out.push({ deliveryId: id, ok: true, replayDeliveryId: r.replayDeliveryId });
    } catch (err) {
      if (!(err instanceof ApiError)) log.error('console replay failed', { deliveryId: id, error: err instanceof Error ? err.message : String(err) });
      out.push({ deliveryId: id, ok: false, error: err instanceof ApiError ? err.message : 'Unexpected error; nothing was replayed.' });
    }
  }
  return out;
}
