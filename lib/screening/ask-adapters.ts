import { formatAddress } from '@/lib/chain/deposit-keys';
import type { ChainFamily } from '@/lib/config/rails';
import { log } from '@/lib/log';
import { processMetrics } from '@/lib/metrics/registry';
import { AdapterFailure, type AdapterName } from './adapters/adapter';
import { configuredAdapters } from './adapters/adapter-config';
import type { Screening } from './screen-address';

/** listed: the list or an adapter stops it; error: an adapter could not answer (never taken as clean). */
export interface FullScreening extends Omit<Screening, 'outcome'> {
  outcome: Screening['outcome'] | 'error';
  /** Who decided a `listed` or `error`: the offline list or the adapter. */
  by: 'list' | AdapterName | null;
}

/**
 * Every configured adapter at once on an address the offline list found clean (`local`): listed by any stops it; an
 * adapter that times out, answers non-2xx or out of shape makes the outcome `error`. None configured for the family:
 * the list's answer, no I/O.
 */
export async function askAdapters(local: Screening): Promise<FullScreening> {
  const family: ChainFamily = local.family;
  const { list: all, timeoutMs } = configuredAdapters();
  // An adapter for another family (the oracle: EVM only) is not asked; none left is the list's answer alone.
  const list = all.filter((a) => !a.families || a.families.includes(family));
  if (list.length === 0) return { ...local, by: null };
  // The identity (lower-case 0x…, 41…) in its wire form (EIP-55, T…): what the services are asked about.
  const wire = formatAddress(local.identity);
  const signal = AbortSignal.timeout(timeoutMs);
  const reads = await Promise.all(
    list.map(async (a) => {
      try {
        const listed = await a.check(family, wire, signal);
        processMetrics().screeningAdapterReads.inc({ adapter: a.name, outcome: listed ? 'listed' : 'clean' });
        return { name: a.name, outcome: listed ? ('listed' as const) : ('clean' as const) };
      } catch (err) {
        const reason = err instanceof AdapterFailure ? err.reason : 'unreachable';
        processMetrics().screeningAdapterReads.inc({ adapter: a.name, outcome: 'error' });
        log.warn('screening adapter failed', { adapter: a.name, family, reason });
        return { name: a.name, outcome: 'error' as const };
      }
    }),
  );
  // Listed by any source wins over another's failure: the address is stopped either way, and says why.
  const hit = reads.find((r) => r.outcome === 'listed') ?? reads.find((r) => r.outcome === 'error');
  return hit ? { ...local, outcome: hit.outcome, by: hit.name } : { ...local, by: null };
}
