import { auditLog, type AuditActorKind } from '@/db/schema';
import type { Db } from '@/lib/db';
import { insertRow } from '@/lib/db/insert-row';
import { auditRow } from './audit-row';

export type AuditRow = typeof auditLog.$inferSelect;

export interface AuditActor {
  kind: AuditActorKind;
  id: string;
  /** Email or key name as it is now; stored so the row stays readable after renames. */
  label?: string | null;
}

export interface AuditInput {
  action: string;
  target: { type: string; id: string };
  tenantId?: string | null;
  mode?: 'live' | 'test' | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** Appends one audit row; pass the transaction of the change so both commit or neither does. */
export async function recordAudit(db: Db, actor: AuditActor, entry: AuditInput, now = new Date()): Promise<AuditRow> {
  const row = auditRow(actor, entry, now);
  // Every column is set here, so nothing needs to come back (it sits on the withdrawal path).
  await insertRow(db, auditLog, row);
  return row;
}
