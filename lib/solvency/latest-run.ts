import { and, desc, eq, inArray } from 'drizzle-orm';
import { solvencyLines, solvencyRuns, type SolvencyLine, type SolvencyRun } from '@/db/schema';
import type { ChainKey } from '@/lib/config/rails';
import type { Db } from '@/lib/db';
import { Decimal } from '@/lib/money';

export interface SolvencyView {
  run: SolvencyRun | null;
  lines: SolvencyLine[];
  /** Per line (`kind:mode:chain:asset`), the difference of the last runs, oldest first (null where unread). */
  history: Record<string, { at: string; difference: string | null }[]>;
}

export const lineId = (l: Pick<SolvencyLine, 'kind' | 'mode' | 'chain' | 'asset'>) => `${l.kind}:${l.mode}:${l.chain}:${l.asset}`;

/** The latest run with its lines, token lines first, and each line's recent history (the sparkline). */
export async function latestSolvency(db: Db, opts: { historyRuns?: number } = {}): Promise<SolvencyView> {
  const runs = await db
    .select()
    .from(solvencyRuns)
    .orderBy(desc(solvencyRuns.createdAt), desc(solvencyRuns.id))
    .limit(opts.historyRuns ?? 60);
  const run = runs[0] ?? null;
  if (!run) return { run: null, lines: [], history: {} };
  const rows = await db
    .select()
    .from(solvencyLines)
    .where(
      inArray(
        solvencyLines.runId,
        runs.map((r) => r.id),
      ),
    );
  const all = rows.map(tidy);
  const at = new Map(runs.map((r) => [r.id, r.createdAt.toISOString()]));
  const history: SolvencyView['history'] = {};
  for (const r of [...runs].reverse()) {
    for (const l of all.filter((x) => x.runId === r.id)) (history[lineId(l)] ??= []).push({ at: at.get(r.id)!, difference: l.difference });
  }
  const order = (l: SolvencyLine) => `${l.kind === 'token' ? 0 : 1}:${l.mode === 'live' ? 0 : 1}:${l.chain}:${l.asset}`;
  const lines = all.filter((l) => l.runId === run.id).sort((a, b) => order(a).localeCompare(order(b)));
  return { run, lines, history };
}

/** One line of the latest run (the drill-down), or undefined. */
export async function latestLine(db: Db, key: { kind: string; mode: string; chain: ChainKey; asset: string }) {
  const [run] = await db.select({ id: solvencyRuns.id }).from(solvencyRuns).orderBy(desc(solvencyRuns.createdAt), desc(solvencyRuns.id)).limit(1);
  if (!run) return undefined;
  const [line] = await db
    .select()
    .from(solvencyLines)
    .where(
      and(
        eq(solvencyLines.runId, run.id),
        eq(solvencyLines.kind, key.kind as 'token'),
        eq(solvencyLines.mode, key.mode as 'live'),
        eq(solvencyLines.chain, key.chain),
        eq(solvencyLines.asset, key.asset),
      ),
    );
  return line && tidy(line);
}

const plain = (v: string | null) => (v === null ? null : new Decimal(v).toFixed());

/** Amounts as the wire shows them: exact, without numeric(38,18)'s trailing zeros. */
function tidy(l: SolvencyLine): SolvencyLine {
  return { ...l, held: plain(l.held), owed: plain(l.owed)!, difference: plain(l.difference) };
}
