import type { Withdrawal } from '@/db/schema';
import { familyOf, type ChainKey } from '@/lib/config/rails';
import type { Db } from '@/lib/db';
import { recordDecision } from '@/lib/screening/record-decision';
import { screenWithAdapters } from '@/lib/screening/screen-with-adapters';
import { failWithdrawal } from './finish-withdrawal';

/** stopped: failed here (money back); unscreened: an adapter could not answer, so it must not be signed yet; clean: go on. */
export type LaneScreening = { kind: 'stopped' } | { kind: 'unscreened'; reason: string } | { kind: 'clean' };

/**
 * The sending lane's screening, right before signing (both families), with the same configured screening as the
 * request (the SDN snapshot, then the enabled adapters; the token's freeze list is read by the family's own chain
 * reads next): a queued withdrawal whose destination is now listed fails (its debit given back, or a send-back's
 * payment held again) and the stop is recorded. An adapter that could not answer is never clean: the withdrawal
 * waits unsigned (a retry asks again), as a failed chain read does.
 */
export async function stopScreened(db: Db, w: Withdrawal, chain: ChainKey): Promise<LaneScreening> {
  const s = await screenWithAdapters(familyOf(chain), w.destinationAddress);
  if (s.outcome === 'error')
    return { kind: 'unscreened', reason: `The destination could not be screened (the ${s.by} screening service did not answer); retrying.` };
  if (s.outcome !== 'listed') return { kind: 'clean' };
  const list = s.by === 'list' ? 'the sanctions list this gateway screens against (OFAC SDN)' : 'a sanctions list this gateway screens against';
  const failed = await failWithdrawal(db, w.id, `The destination is on ${list}: not sent.`);
  if (failed) {
    await recordDecision(db, s, { tenantId: w.tenantId, mode: w.mode, subject: 'destination', path: 'lane', outcome: 'stopped', targetId: w.id });
  }
  return { kind: 'stopped' };
}
