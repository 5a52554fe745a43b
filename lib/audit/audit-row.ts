import { newId } from '@/lib/ids';
import type { AuditActor, AuditInput, AuditRow } from './record-audit';

/** The audit row of an action, every column set (the row recordAudit and the withdrawal statement insert). */
export function auditRow(actor: AuditActor, entry: AuditInput, now: Date): AuditRow {
  return {
    id: newId('audit', now.getTime()),
    actorKind: actor.kind,
    actorId: actor.id,
    actorLabel: actor.label ?? null,
    action: entry.action,
    targetType: entry.target.type,
    targetId: entry.target.id,
    tenantId: entry.tenantId ?? null,
    mode: entry.mode ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
    createdAt: now,
  };
}
