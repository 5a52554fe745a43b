import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ChainFamily } from '@/lib/config/rails';
import { parseSnapshot, SCREENED_FAMILIES, versionOf, type Snapshot } from './snapshot';

/** The snapshot shipped in the repository; SCREENING_LIST_PATH names another (what `gateway screening:import` writes). */
export const SHIPPED_LIST_PATH = path.join(process.cwd(), 'lib/screening/data/ofac-sdn.json');
export const listPath = () => process.env.SCREENING_LIST_PATH || SHIPPED_LIST_PATH;

/** The list in memory: one Set per family, so a lookup is a hash probe (no I/O on any money path). */
export interface ScreeningList {
  version: string;
  listDate: string;
  source: string;
  sets: Record<ChainFamily, ReadonlySet<string>>;
  snapshot: Snapshot;
}

export function listOf(snapshot: Snapshot): ScreeningList {
  const sets = Object.fromEntries(SCREENED_FAMILIES.map((f) => [f, new Set(snapshot.families[f].entries)])) as unknown as ScreeningList['sets'];
  return { version: versionOf(snapshot), listDate: snapshot.listDate, source: snapshot.source, sets, snapshot };
}

/** Reads and verifies a snapshot file (throws on a bad digest or shape: an unverified list is never used). */
export function readListFile(file = listPath()): ScreeningList {
  return listOf(parseSnapshot(JSON.parse(readFileSync(file, 'utf8'))));
}

const key = Symbol.for('gateway.screening-list');
type Holder = { list: ScreeningList; file: string; mtimeMs: number; checkedAt: number; pinned: boolean };
type G = typeof globalThis & { [key]?: Holder };
/** How often a process looks whether the file was replaced (an import in another process): a stat, at most this often. */
const RECHECK_MS = 5_000;

/**
 * The list this process screens with: loaded once, reloaded when an import replaced the file (its mtime changed). A
 * file that fails verification on reload keeps the previous list and throws nothing: the import verifies first.
 */
export function currentList(): ScreeningList {
  const g = globalThis as G;
  const now = Date.now();
  const h = g[key];
  if (h && (h.pinned || now - h.checkedAt < RECHECK_MS)) return h.list;
  const file = listPath();
  if (h && h.file === file) {
    h.checkedAt = now;
    try {
      const mtimeMs = statSync(file).mtimeMs;
      if (mtimeMs === h.mtimeMs) return h.list;
      h.list = readListFile(file);
      h.mtimeMs = mtimeMs;
    } catch {
      // Keep screening with the list already verified.
    }
    return h.list;
  }
  const list = readListFile(file);
  g[key] = { list, file, mtimeMs: statSync(file).mtimeMs, checkedAt: now, pinned: false };
  return list;
}

/** Tests and the import: screen with this list in this process (pinned: the file is not looked at again). null: back to the file. */
export function setScreeningList(list: ScreeningList | null): void {
  const g = globalThis as G;
  if (!list) {
    delete g[key];
    return;
  }
  g[key] = { list, file: listPath(), mtimeMs: 0, checkedAt: Date.now(), pinned: true };
}
