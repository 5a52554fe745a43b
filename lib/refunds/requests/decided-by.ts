import type { AuditActor } from '@/lib/audit/record-audit';

/** refund_requests.decided_by: who approved or declined. */
export const decidedBy = (actor: AuditActor) => (actor.kind === 'system' ? 'policy' : `${actor.kind}:${actor.id}`);

/** The auto-refund policy as an audit actor. */
export const POLICY_ACTOR: AuditActor = { kind: 'system', id: 'auto-refund-policy', label: 'Auto-refund policy' };
