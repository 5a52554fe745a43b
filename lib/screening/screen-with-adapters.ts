import type { ChainFamily } from '@/lib/config/rails';
import { askAdapters, type FullScreening } from './ask-adapters';
import { screenAddress } from './screen-address';

/**
 * The configured screening of one address: the offline SDN list, then every configured adapter at once
 * (lib/screening/adapters; none by default, then this is screenAddress with no I/O). Listed anywhere stops the
 * address; an adapter that could not answer makes the outcome `error`, which the caller turns into a hold (payers,
 * the lane), a 503 (destinations) or a refused release, never a pass.
 */
export async function screenWithAdapters(family: ChainFamily, address: string): Promise<FullScreening> {
  const local = screenAddress(family, address);
  if (local.outcome !== 'clean') return { ...local, by: local.outcome === 'listed' ? 'list' : null };
  return askAdapters(local);
}
