import type { ChainFamily } from '@/lib/config/rails';
import { processMetrics } from '@/lib/metrics/registry';
import { configuredAdapters } from './adapters/adapter-config';
import { askAdapters } from './ask-adapters';
import { currentList } from './screening-list';

/**
 * One watcher pass's payers (lib/payments/record-transfers.ts): the senders to hold. Each distinct sender is screened
 * once per pass, keyed as the watcher decoded it: a transfer's `from` is already its family's identity (lower-case
 * `0x…` / `41…`, lib/chain/common/transfer.ts), so it probes the list's Set as it is, with no normalised copy; the
 * outcome counters move once per pass. Then, only when adapters are configured, each distinct sender the list did not
 * stop is asked (one read per sender, not per payment): listed or unanswered holds it too (a failed read never passes).
 */
export async function screenSenders(family: ChainFamily, senders: Iterable<string>): Promise<ReadonlySet<string>> {
  const list = currentList();
  const set = list.sets[family];
  const distinct = senders instanceof Set ? (senders as Set<string>) : new Set(senders);
  const held = new Set<string>();
  for (const s of distinct) if (set.has(s)) held.add(s);
  const counter = processMetrics().screenings;
  if (held.size > 0) counter.inc({ outcome: 'listed' }, held.size);
  if (distinct.size > held.size) counter.inc({ outcome: 'clean' }, distinct.size - held.size);
  if (held.size === distinct.size || configuredAdapters().list.length === 0) return held;
  const ask = [...distinct].filter((s) => !held.has(s));
  const reads = await Promise.all(ask.map((identity) => askAdapters({ family, identity, outcome: 'clean', listVersion: list.version })));
  reads.forEach((r, i) => {
    if (r.outcome !== 'clean') held.add(ask[i]!);
  });
  return held;
}
