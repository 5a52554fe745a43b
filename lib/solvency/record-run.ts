import { sql } from 'drizzle-orm';
import { solvencyLines, solvencyRuns } from '@/db/schema';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import { raiseConsoleAlert, resolveConsoleAlert } from '@/lib/operator/console-alert';
import { writeOperatorEvent } from '@/lib/operator/operator-event';
import type { LineFigures } from './network-lines';

export interface RunRecord {
  startedAt: Date;
  lines: LineFigures[];
  unattributed: { mode: string; asset: string; amount: string }[];
}

export const subjectOf = (l: Pick<LineFigures, 'mode' | 'chain' | 'asset'>) => `${l.mode}:${l.chain}:${l.asset}`;

/**
 * Stores a run with its lines and, in the same transaction, the operator's view of it: a line short
 * (difference < 0, or a gas wallet under its floor) opens or refreshes its console alert and writes an
 * operator event when the alert opens or its figure changes; a line covered again resolves its alert
 * with a `*.recovered` event. A line that could not be read leaves its alert as it was (unknown is not
 * recovered). Returns the run.
 */
export async function recordSolvencyRun(db: Db, run: RunRecord) {
  const errors = run.lines.filter((l) => l.status === 'error');
  const status = errors.length > 0 ? 'error' : run.lines.some((l) => l.status === 'shortfall') ? 'shortfall' : 'ok';
  const id = newId('solvencyRun');
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(solvencyRuns)
      .values({
        id,
        status,
        startedAt: run.startedAt,
        finishedAt: new Date(),
        error: errors[0] ? `${errors[0].mode} ${errors[0].chain}: ${errors[0].error}` : null,
        unattributed: run.unattributed,
      })
      .returning();
    if (run.lines.length > 0) await tx.insert(solvencyLines).values(run.lines.map((l) => ({ ...l, runId: id })));
    for (const l of run.lines) {
      if (l.status === 'error') continue;
      const kind = l.kind === 'token' ? 'solvency_shortfall' : 'gas_below_floor';
      const subject = subjectOf(l);
      if (l.status === 'shortfall') {
        const data = {
          runId: id,
          mode: l.mode,
          chain: l.chain,
          asset: l.asset,
          blockNumber: l.blockNumber,
          held: l.held,
          owed: l.owed,
          difference: l.difference,
        };
        const { opened, before } = await raiseConsoleAlert(tx, kind, subject, data);
        if (opened || before?.difference !== l.difference) {
          await writeOperatorEvent(tx, l.kind === 'token' ? 'solvency.shortfall' : 'gas_wallet.below_floor', subject, data);
        }
      } else {
        const resolved = await resolveConsoleAlert(tx, kind, subject);
        if (resolved) {
          await writeOperatorEvent(tx, l.kind === 'token' ? 'solvency.recovered' : 'gas_wallet.recovered', subject, {
            runId: id,
            alertId: resolved.id,
            blockNumber: l.blockNumber,
            difference: l.difference,
          });
        }
      }
    }
    return row!;
  });
}

/** Deletes runs (and their lines) older than the history kept. */
export async function pruneSolvencyRuns(db: Db, keepDays: number) {
  await db.execute(sql`delete from solvency_runs where created_at < now() - make_interval(days => ${keepDays})`);
}
