import { createHash } from 'node:crypto';
import { z } from 'zod';
import { IDENTITIES } from '@/lib/chain/identities';
import type { ChainFamily } from '@/lib/config/rails';

/** The families a snapshot covers: every family the gateway pays on (lib/chain/identities.ts). */
export const SCREENED_FAMILIES = Object.keys(IDENTITIES) as ChainFamily[];

const familySchema = z.object({
  /** Identities in the family's form (lib/chain/identities.ts), sorted, unique. */
  entries: z.array(z.string()),
  count: z.number().int().nonnegative(),
  /** sha256 of the entries joined by "\n": a file edited by hand fails to load. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** How many entries each SDN asset tag ("ETH", "USDT", "TRX", …) contributed (an entry may come from several). */
  assets: z.record(z.string(), z.number().int().nonnegative()),
});

/**
 * Families added after lists were shipped (issue 49): a snapshot made before one existed has no entry for it and
 * parses with that family empty (it screens none of its addresses until the list is imported again), and its version
 * is what it was, so decisions already recorded keep naming the same list.
 */
const LATER_FAMILIES: readonly ChainFamily[] = ['solana'];
const EMPTY_FAMILY = { entries: [], count: 0, sha256: digestOfEmpty(), assets: {} };

export const snapshotSchema = z.object({
  format: z.literal(1),
  /** The SDN list's own publication date (YYYY-MM-DD): what "older" and the list's age are measured by. */
  listDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  /** Where the entries came from, in words a reviewer can check. */
  source: z.string().min(1),
  families: z.object(
    Object.fromEntries(SCREENED_FAMILIES.map((f) => [f, LATER_FAMILIES.includes(f) ? familySchema.default(EMPTY_FAMILY) : familySchema])) as Record<
      ChainFamily,
      typeof familySchema
    >,
  ),
});
export type Snapshot = z.infer<typeof snapshotSchema>;

export const digestOf = (entries: readonly string[]) => createHash('sha256').update(entries.join('\n')).digest('hex');

function digestOfEmpty(): string {
  return createHash('sha256').update('').digest('hex');
}

/** The list version every decision records: the SDN date and the first 12 hex of the digest of every family's digest. */
export function versionOf(s: Snapshot): string {
  const all = createHash('sha256')
    .update(
      SCREENED_FAMILIES.filter((f) => !(LATER_FAMILIES.includes(f) && s.families[f].count === 0))
        .map((f) => s.families[f].sha256)
        .join(':'),
    )
    .digest('hex');
  return `${s.listDate}.${all.slice(0, 12)}`;
}

/** One SDN "Digital Currency Address" entry as published: the asset tag and the address as written. */
export interface SdnEntry {
  asset: string;
  address: string;
}

/**
 * A snapshot from SDN entries: each address kept in every family whose form it has (an `0x…` under ETH, USDT, USDC,
 * ARB, BSC or ETC is one EVM identity for every EVM network; a `T…` under TRX or USDT is TRON's). Others (Bitcoin,
 * Monero, …) are not addresses the gateway can pay or be paid from, and are left out.
 */
export function buildSnapshot(entries: readonly SdnEntry[], listDate: string, source: string): Snapshot {
  const families = {} as Snapshot['families'];
  for (const family of SCREENED_FAMILIES) {
    const ids = new Set<string>();
    const assets: Record<string, number> = {};
    for (const e of entries) {
      const id = IDENTITIES[family](e.address);
      if (!id) continue;
      ids.add(id);
      assets[e.asset] = (assets[e.asset] ?? 0) + 1;
    }
    const sorted = [...ids].sort();
    families[family] = { entries: sorted, count: sorted.length, sha256: digestOf(sorted), assets };
  }
  return { format: 1, listDate, source, families };
}

/** Parses and verifies a snapshot file's JSON: throws on a wrong shape, a count or digest that does not match, an entry not in its family's form. */
export function parseSnapshot(json: unknown): Snapshot {
  const s = snapshotSchema.parse(json);
  for (const family of SCREENED_FAMILIES) {
    const f = s.families[family];
    if (f.count !== f.entries.length) throw new Error(`${family}: count ${f.count} but ${f.entries.length} entries`);
    if (digestOf(f.entries) !== f.sha256) throw new Error(`${family}: sha256 does not match the entries (file changed by hand?)`);
    const bad = f.entries.find((e) => IDENTITIES[family](e) !== e);
    if (bad) throw new Error(`${family}: ${bad} is not in the family's identity form`);
  }
  return s;
}
