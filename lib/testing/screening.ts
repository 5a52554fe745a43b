import { afterEach } from 'vitest';
import { IDENTITIES } from '@/lib/chain/identities';
import { buildSnapshot } from '@/lib/screening/snapshot';
import { listOf, readListFile, SHIPPED_LIST_PATH, setScreeningList } from '@/lib/screening/screening-list';

/**
 * Screens with the shipped snapshot plus `addresses` (any family's wire form) in this process until the test ends:
 * what an import listing them would do. Addresses go in as SDN "TEST" entries and are normalised like real ones.
 */
export function listAddresses(...addresses: string[]): void {
  const shipped = readListFile(SHIPPED_LIST_PATH).snapshot;
  const entries = Object.values(shipped.families).flatMap((f) => f.entries.map((address) => ({ asset: 'SHIPPED', address })));
  for (const a of addresses) {
    if (!Object.values(IDENTITIES).some((id) => id(a))) throw new Error(`listAddresses: ${a} is no family's address`);
    entries.push({ asset: 'TEST', address: a });
  }
  setScreeningList(listOf(buildSnapshot(entries, shipped.listDate, 'test')));
}

/** Every test file that lists addresses goes back to the shipped snapshot after each test. */
export function resetScreeningAfterEach(): void {
  afterEach(() => setScreeningList(null));
}
