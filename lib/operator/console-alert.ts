import { and, eq, isNull, sql } from 'drizzle-orm';
import { consoleAlerts, type ConsoleAlert } from '@/db/schema';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';

export type ConsoleAlertKind = 'solvency_shortfall' | 'gas_below_floor';

/**
 * Opens the alert for a condition or refreshes the open one (lastSeenAt, data), in the caller's
 * transaction. Returns whether it was opened now and the data it had before (to tell a changed figure).
 */
export async function raiseConsoleAlert(tx: Db, kind: ConsoleAlertKind, subject: string, data: Record<string, unknown>) {
  const [open] = await tx
    .select()
    .from(consoleAlerts)
    .where(and(eq(consoleAlerts.kind, kind), eq(consoleAlerts.subject, subject), isNull(consoleAlerts.resolvedAt)))
    .for('update');
  if (open) {
    await tx
      .update(consoleAlerts)
      .set({ data, lastSeenAt: sql`now()` })
      .where(eq(consoleAlerts.id, open.id));
    return { opened: false, before: open.data };
  }
  await tx.insert(consoleAlerts).values({ id: newId('consoleAlert'), kind, subject, data });
  return { opened: true, before: null };
}

/** Resolves the open alert of a condition, if any; returns it. */
export async function resolveConsoleAlert(tx: Db, kind: ConsoleAlertKind, subject: string): Promise<ConsoleAlert | undefined> {
  const [done] = await tx
    .update(consoleAlerts)
    .set({ resolvedAt: sql`now()` })
    .where(and(eq(consoleAlerts.kind, kind), eq(consoleAlerts.subject, subject), isNull(consoleAlerts.resolvedAt)))
    .returning();
  return done;
}
