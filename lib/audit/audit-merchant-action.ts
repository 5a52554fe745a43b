import type { Db } from '@/lib/db';
import { log } from '@/lib/log';
import type { Mode } from '@/lib/mode';
import { recordAudit, type AuditActor, type AuditInput } from './record-audit';

/** The auto-refund policy's settings, as audited (decimals as plain strings). */
export interface AutoRefundSettings {
  autoRefundOverpayments: boolean;
  autoRefundDelaySeconds: number;
  autoRefundMaxMultiple: string;
  autoRefundMaxAmount: string;
}

/** The merchant actions every tenant sees in Settings > Activity, and what of each record is kept (never a secret). */
export type MerchantAction =
  | { action: 'api_key.created'; key: { id: string; name: string; scopes: string[]; mode: Mode } }
  | { action: 'api_key.revoked'; key: { id: string; name: string; mode: Mode } }
  | { action: 'webhook_endpoint.secret_rotated'; endpoint: { id: string; url: string }; graceHours?: number }
  | { action: 'tenant.underpayment_tolerance_changed'; before: string; after: string }
  | { action: 'tenant.auto_refund_policy_changed'; before: AutoRefundSettings; after: AutoRefundSettings }
  | { action: 'tenant.wrong_network_policy_changed'; before: string; after: string }
  | {
      action: 'refund_request.approved' | 'refund_request.declined';
      request: { id: string; invoiceId: string; destinationAddress: string; withdrawalId: string | null; declineReason: string | null };
    }
  | { action: 'refund_claim.created' | 'refund_claim.canceled'; claim: { id: string; invoiceId: string; amount: string } }
  | {
      action: 'withdrawal.created';
      withdrawal: { id: string; amount: string; feeAmount: string; destinationAddress: string; status: string };
      kind?: 'internal' | 'exchange';
    }
  | {
      action: 'exchange_order.emergency_resolved';
      order: {
        id: string;
        exchangeId: string;
        purpose: string;
        reasons: string[];
        choice: 'EXCHANGE' | 'REFUND';
        refundAddress: string | null;
        status: string | null;
      };
    };

/** The actor of a /v1 request: the API key it was made with. */
export const apiKeyActor = (auth: { keyId: string }): AuditActor => ({ kind: 'api_key', id: auth.keyId });

/** The actor of a dashboard action: the signed-in user. */
export const userActor = (ctx: { user: { id: string; email: string } }): AuditActor => ({ kind: 'user', id: ctx.user.id, label: ctx.user.email });

/** The audit row of a merchant action (what of each record is kept: never a secret). */
export function merchantAuditEntry(owner: { tenantId: string; mode: Mode }, a: MerchantAction): AuditInput {
  const base = { tenantId: owner.tenantId, mode: owner.mode };
  switch (a.action) {
    case 'api_key.created':
      return {
        ...base,
        action: a.action,
        target: { type: 'api_key', id: a.key.id },
        after: { name: a.key.name, scopes: a.key.scopes, mode: a.key.mode, status: 'ACTIVE' },
      };
    case 'api_key.revoked':
      return {
        ...base,
        action: a.action,
        target: { type: 'api_key', id: a.key.id },
        before: { name: a.key.name, status: 'ACTIVE' },
        after: { status: 'REVOKED' },
      };
    case 'webhook_endpoint.secret_rotated':
      return {
        ...base,
        action: a.action,
        target: { type: 'webhook_endpoint', id: a.endpoint.id },
        after: { url: a.endpoint.url, previousSecretValidHours: a.graceHours ?? 0 },
      };
    case 'tenant.underpayment_tolerance_changed':
      return {
        ...base,
        action: a.action,
        target: { type: 'tenant', id: owner.tenantId },
        before: { underpaymentTolerancePercent: a.before },
        after: { underpaymentTolerancePercent: a.after },
      };
    case 'tenant.auto_refund_policy_changed':
      return {
        ...base,
        action: a.action,
        target: { type: 'tenant', id: owner.tenantId },
        before: { ...a.before },
        after: { ...a.after },
      };
    case 'tenant.wrong_network_policy_changed':
      return {
        ...base,
        action: a.action,
        target: { type: 'tenant', id: owner.tenantId },
        before: { wrongNetworkPolicy: a.before },
        after: { wrongNetworkPolicy: a.after },
      };
    case 'refund_request.approved':
    case 'refund_request.declined': {
      const r = a.request;
      return {
        ...base,
        action: a.action,
        target: { type: 'refund_request', id: r.id },
        before: { status: 'PENDING', invoiceId: r.invoiceId, destinationAddress: r.destinationAddress },
        after: {
          status: a.action === 'refund_request.approved' ? 'APPROVED' : 'DECLINED',
          withdrawalId: r.withdrawalId,
          declineReason: r.declineReason,
        },
      };
    }
    case 'refund_claim.created':
    case 'refund_claim.canceled':
      // The link's secret is never part of the record.
      return {
        ...base,
        action: a.action,
        target: { type: 'refund_claim', id: a.claim.id },
        ...(a.action === 'refund_claim.canceled' ? { before: { status: 'OPEN' } } : {}),
        after: { invoiceId: a.claim.invoiceId, amount: a.claim.amount, status: a.action === 'refund_claim.created' ? 'OPEN' : 'CANCELED' },
      };
    case 'withdrawal.created': {
      const w = a.withdrawal;
      return {
        ...base,
        action: a.action,
        target: { type: 'withdrawal', id: w.id },
        after: { kind: a.kind ?? 'internal', amount: w.amount, feeAmount: w.feeAmount, destinationAddress: w.destinationAddress, status: w.status },
      };
    }
    case 'exchange_order.emergency_resolved': {
      // The order's token is a secret and is never part of the record.
      const o = a.order;
      return {
        ...base,
        action: a.action,
        target: { type: 'exchange_order', id: o.id },
        before: { status: 'EMERGENCY', choice: 'NONE', reasons: o.reasons },
        after: { exchangeId: o.exchangeId, purpose: o.purpose, choice: o.choice, refundAddress: o.refundAddress, status: o.status },
      };
    }
  }
}

/**
 * Records a merchant's sensitive action after it succeeded (actions whose
 * domain function has no transaction to share). A failure to record is
 * logged, not thrown: the action happened, and answering 500 would invite the
 * client to repeat it. Money movements (withdrawals) record their row inside
 * their own transaction instead (`recordAudit(tx, ...)`).
 */
export async function auditMerchantAction(db: Db, actor: AuditActor, owner: { tenantId: string; mode: Mode }, a: MerchantAction) {
  try {
    await recordAudit(db, actor, merchantAuditEntry(owner, a));
  } catch (err) {
    log.error('audit record failed', { action: a.action, tenantId: owner.tenantId, error: err instanceof Error ? err.message : String(err) });
  }
}
