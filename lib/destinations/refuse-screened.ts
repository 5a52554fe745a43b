import { ApiError } from '@/lib/api/errors';
import type { ChainFamily } from '@/lib/config/rails';
import { log } from '@/lib/log';
import { screenAddress } from '@/lib/screening/screen-address';

/**
 * The OFAC SDN snapshot (lib/screening, docs/screening.md): a destination on it is 400 `destination_screened` before
 * anything is written, on every path that sends money (withdrawals, exchange withdrawals, refunds, claim links,
 * payer proposals, send-backs) and on the allow-list; the sending lane screens again right before signing. In memory,
 * no read that can fail. The message names the list, not the entry's details.
 */
export function refuseScreened(family: ChainFamily, destination: string, path = 'destinationAddress'): void {
  const s = screenAddress(family, destination);
  if (s.outcome !== 'listed') return;
  log.warn('destination screened', { family, listVersion: s.listVersion, path });
  const message = 'is on the sanctions list this gateway screens against (OFAC SDN): no money is sent there';
  throw new ApiError('destination_screened', `${path}: ${message}`, [{ path, message }]);
}
