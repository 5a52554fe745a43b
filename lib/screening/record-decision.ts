import { screeningDecisions } from '@/db/schema';
import type { Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import type { Mode } from '@/lib/mode';
import type { Screening } from './screen-address';

export type DecisionOutcome = (typeof screeningDecisions.$inferInsert)['outcome'];

export interface Decision {
  tenantId: string | null;
  mode: Mode | null;
  subject: 'destination' | 'payer';
  path: string;
  outcome: DecisionOutcome;
  targetId?: string | null;
  actorId?: string | null;
}

/** Appends one decision (screening_decisions is append-only): the screened identity, the list version, what was decided. */
export async function recordDecision(db: Db, screening: Pick<Screening, 'family' | 'identity' | 'listVersion'>, d: Decision): Promise<void> {
  await db.insert(screeningDecisions).values({
    id: newId('screening'),
    tenantId: d.tenantId,
    mode: d.mode,
    subject: d.subject,
    family: screening.family,
    address: screening.identity,
    listVersion: screening.listVersion,
    outcome: d.outcome,
    path: d.path,
    targetId: d.targetId ?? null,
    actorId: d.actorId ?? null,
  });
}
