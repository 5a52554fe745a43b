import { eq } from 'drizzle-orm';
import { tenants, type Tenant } from '@/db/schema';
import type { Db } from '@/lib/db';
import { notFound } from '@/lib/api/errors';
import { Decimal, formatAmount } from '@/lib/money';
import type { Mode } from '@/lib/mode';
import { tenantRails } from './tenant-rails';

export async function getTenantOrThrow(db: Db, id: string) {
  const [row] = await db.select().from(tenants).where(eq(tenants.id, id));
  if (!row) throw notFound('Tenant');
  return row;
}

/** The tenant as GET /v1/tenants/me shows it to a key of `mode`. */
export function tenantView(
  t: Pick<
    Tenant,
    | 'id'
    | 'name'
    | 'invoiceFeeRate'
    | 'withdrawalFeeRate'
    | 'underpaymentTolerancePercent'
    | 'autoRefundOverpayments'
    | 'autoRefundEnabledAt'
    | 'autoRefundDelaySeconds'
    | 'autoRefundMaxMultiple'
    | 'autoRefundMaxAmount'
    | 'refundNetworkFeePayer'
    | 'wrongNetworkPolicy'
    | 'rails'
    | 'status'
    | 'apiVersion'
    | 'createdAt'
  >,
  mode: Mode,
) {
  return {
    id: t.id,
    name: t.name,
    mode,
    invoiceFeePercent: new Decimal(t.invoiceFeeRate).toFixed(),
    feePercent: new Decimal(t.withdrawalFeeRate).toFixed(),
    underpaymentTolerancePercent: new Decimal(t.underpaymentTolerancePercent).toFixed(),
    autoRefundOverpayments: t.autoRefundOverpayments,
    autoRefundEnabledAt: t.autoRefundEnabledAt?.toISOString() ?? null,
    autoRefundDelaySeconds: t.autoRefundDelaySeconds,
    autoRefundMaxMultiple: new Decimal(t.autoRefundMaxMultiple).toFixed(),
    autoRefundMaxAmount: formatAmount(t.autoRefundMaxAmount),
    refundNetworkFeePayer: t.refundNetworkFeePayer,
    wrongNetworkPolicy: t.wrongNetworkPolicy,
    rails: tenantRails(t, mode),
    status: t.status,
    apiVersion: t.apiVersion,
    createdAt: t.createdAt.toISOString(),
  };
}
