import { IDENTITIES } from '@/lib/chain/identities';
import type { ChainFamily } from '@/lib/config/rails';
import { processMetrics } from '@/lib/metrics/registry';
import { currentList } from './screening-list';

/** listed: on the list; clean: a well-formed address not on it; invalid: not an address of the family (callers parse first). */
export type ScreeningOutcome = 'listed' | 'clean' | 'invalid';

export interface Screening {
  family: ChainFamily;
  /** The address in the family's identity form (lib/chain/identities.ts), or as given when invalid. */
  identity: string;
  outcome: ScreeningOutcome;
  /** The list version decided against (lib/screening/snapshot.ts versionOf). */
  listVersion: string;
}

/**
 * Screens one address against the offline SDN snapshot: normalised by its family's codec, then one Set lookup.
 * Synchronous and I/O-free, so it runs on every money path without a measurable cost (docs/screening.md).
 */
export function screenAddress(family: ChainFamily, address: string): Screening {
  const list = currentList();
  const identity = IDENTITIES[family](address);
  const outcome: ScreeningOutcome = identity === null ? 'invalid' : list.sets[family].has(identity) ? 'listed' : 'clean';
  processMetrics().screenings.inc({ outcome });
  return { family, identity: identity ?? address, outcome, listVersion: list.version };
}
