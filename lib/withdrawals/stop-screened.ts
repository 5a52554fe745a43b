import type { Withdrawal } from '@/db/schema';
import { familyOf, type ChainKey } from '@/lib/config/rails';
import type { Db } from '@/lib/db';
import { recordDecision } from '@/lib/screening/record-decision';
import { screenAddress } from '@/lib/screening/screen-address';
import { failWithdrawal } from './finish-withdrawal';

/**
 * The sending lane's screening, right before signing (both families): a queued withdrawal whose destination is now
 * on the SDN snapshot fails (its debit given back, or a send-back's payment held again) and the stop is recorded.
 * True when it was stopped.
 */
export async function stopScreened(db: Db, w: Withdrawal, chain: ChainKey): Promise<boolean> {
  const s = screenAddress(familyOf(chain), w.destinationAddress);
  if (s.outcome !== 'listed') return false;
  const failed = await failWithdrawal(db, w.id, 'The destination is on the sanctions list this gateway screens against (OFAC SDN): not sent.');
  if (failed) {
    await recordDecision(db, s, { tenantId: w.tenantId, mode: w.mode, subject: 'destination', path: 'lane', outcome: 'stopped', targetId: w.id });
  }
  return true;
}
