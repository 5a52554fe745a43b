import { ApiError } from '@/lib/api/errors';
import type { ChainFamily } from '@/lib/config/rails';
import { log } from '@/lib/log';
import { configuredAdapters } from '@/lib/screening/adapters/adapter-config';
import { screenWithAdapters } from '@/lib/screening/screen-with-adapters';

/**
 * The optional screening adapters (lib/screening/adapters, off by default) on a destination, next to the freeze-list
 * read and like it before anything is written: stopped by one is 400 `destination_screened`; an adapter that could
 * not answer (timeout, 5xx, malformed) is a 503 and nothing changes, never a pass. The offline list was checked
 * already (refuse-screened.ts); with no adapter configured this returns at once.
 */
export async function refuseScreenedByAdapters(family: ChainFamily, destination: string, path = 'destinationAddress'): Promise<void> {
  if (configuredAdapters().list.length === 0) return;
  const s = await screenWithAdapters(family, destination);
  if (s.outcome === 'error') {
    throw new ApiError(
      'service_unavailable',
      `${path}: could not be screened (the ${s.by} screening service did not answer); nothing was changed, try again.`,
    );
  }
  if (s.outcome !== 'listed') return;
  log.warn('destination screened', { family, listVersion: s.listVersion, path, by: s.by });
  const message = 'is on a sanctions list this gateway screens against: no money is sent there';
  throw new ApiError('destination_screened', `${path}: ${message}`, [{ path, message }]);
}
