import { renameSync, writeFileSync } from 'node:fs';
import type { AuditActor } from '@/lib/audit/record-audit';
import { recordAudit } from '@/lib/audit/record-audit';
import type { Db } from '@/lib/db';
import { newlyListedReport, type AddedEntries } from './newly-listed-report';
import { MalformedSdnError, parseSdn } from './parse-sdn';
import { listOf, listPath, readListFile, setScreeningList } from './screening-list';
import { buildSnapshot, SCREENED_FAMILIES } from './snapshot';

/** The share of current entries an import may drop without --force (a truncated export must not empty the list). */
export const MAX_DROP_SHARE = 0.1;

export class ImportRefused extends Error {
  name = 'ImportRefused';
}

export interface ImportOptions {
  /** YYYY-MM-DD for a CSV, which states no date; an XML's own date wins. */
  date?: string;
  force?: boolean;
  /** Where the list is written (default: SCREENING_LIST_PATH, else the shipped file). */
  target?: string;
  actor: AuditActor;
  source?: string;
}

/**
 * Replaces the screening list from an SDN export (`gateway screening:import`): parsed and normalised, then refused
 * when malformed (no address, no date), older than the current list, or dropping more than MAX_DROP_SHARE of the
 * current entries without `force`. Written atomically (temp file, rename; every process reloads it within seconds),
 * and audited with the counts added and removed per family.
 */
export async function importScreeningList(db: Db, text: string, opts: ImportOptions) {
  const parsed = parseSdn(text);
  const listDate = parsed.listDate ?? opts.date ?? null;
  if (!listDate || !/^\d{4}-\d{2}-\d{2}$/.test(listDate)) {
    throw new MalformedSdnError(`${parsed.format} states no publication date: pass --date YYYY-MM-DD`);
  }
  const target = opts.target ?? listPath();
  const current = readListFile(target);
  if (listDate < current.listDate && !opts.force) {
    throw new ImportRefused(`the file's list (${listDate}) is older than the current one (${current.listDate}); --force to import it anyway`);
  }
  const next = buildSnapshot(parsed.entries, listDate, opts.source ?? `OFAC SDN ${parsed.format} imported ${new Date().toISOString().slice(0, 10)}`);
  const counts = Object.fromEntries(
    SCREENED_FAMILIES.map((f) => {
      const before = current.sets[f];
      const after = new Set(next.families[f].entries);
      return [
        f,
        {
          before: before.size,
          after: after.size,
          added: [...after].filter((e) => !before.has(e)).length,
          removed: [...before].filter((e) => !after.has(e)).length,
        },
      ];
    }),
  ) as Record<string, { before: number; after: number; added: number; removed: number }>;
  // The identities this import lists for the first time: kept in the audit entry, for the console's report.
  const added = Object.fromEntries(
    SCREENED_FAMILIES.map((f) => [f, next.families[f].entries.filter((e) => !current.sets[f].has(e))]),
  ) as AddedEntries;
  const totalBefore = Object.values(counts).reduce((n, c) => n + c.before, 0);
  const removed = Object.values(counts).reduce((n, c) => n + c.removed, 0);
  if (totalBefore > 0 && removed / totalBefore > MAX_DROP_SHARE && !opts.force) {
    throw new ImportRefused(
      `the file would drop ${removed} of ${totalBefore} entries (more than ${MAX_DROP_SHARE * 100}%): a truncated export? --force to import it anyway`,
    );
  }
  const tmp = `${target}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(next, null, 1) + '\n');
  renameSync(tmp, target);
  const list = listOf(next);
  setScreeningList(null);
  await recordAudit(db, opts.actor, {
    action: 'screening.list_imported',
    target: { type: 'screening_list', id: list.version },
    before: { version: current.version, listDate: current.listDate },
    after: { version: list.version, listDate, format: parsed.format, forced: Boolean(opts.force), counts, added },
  });
  // What already exists that the newly listed addresses touch (printed by the CLI; the console shows it too).
  const touched = await newlyListedReport(db, added);
  return { version: list.version, listDate, format: parsed.format, counts, target, touched };
}
