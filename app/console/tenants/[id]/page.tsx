import { notFound } from 'next/navigation';
import { AuditTable } from '@/components/audit/audit-table';
import { FeeRatesForm } from '@/components/console/fee-rates-form';
import { TenantStatusForm } from '@/components/console/tenant-status-form';
import { StatusBadge } from '@/components/ui/badge';
import { Card, PageHeader, tableClass, tdClass, thClass } from '@/components/ui/card';
import { Money } from '@/components/ui/money';
import { Time } from '@/components/ui/time';
import { ApiError } from '@/lib/api/errors';
import { listAudit } from '@/lib/audit/list-audit';
import { requireSupport } from '@/lib/console/context';
import { getTenantDetail } from '@/lib/console/get-tenant-detail';
import { Decimal } from '@/lib/money';
import { ScrollTable } from '@/components/ui/scroll-hint';

export const metadata = { title: 'Tenant · Support console' };

export default async function TenantPage({ params }: { params: Promise<{ id: string }> }) {
  const ctx = await requireSupport();
  const { id } = await params;
  const detail = await getTenantDetail(ctx.db, id).catch((e) => {
    if (e instanceof ApiError && e.code === 'not_found') notFound();
    throw e;
  });
  const { tenant, keys, balances, team, endpoints } = detail;
  const audit = await listAudit(ctx.db, { tenantId: tenant.id, limit: 20 });
  return (
    <>
      <PageHeader
        title={tenant.name}
        description={
          <span className="font-mono">
            {tenant.id} · /store/{tenant.slug}
          </span>
        }
        actions={<StatusBadge status={tenant.status.toUpperCase()} />}
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <Card title="Balances">
          <dl className="grid grid-cols-2 gap-4 text-sm">
            {balances.map((b) => (
              <div key={`${b.mode}:${b.currency}`} data-balance-mode={b.mode} data-balance-currency={b.currency}>
                <dt className="font-medium text-slate-500">
                  <span className="capitalize">{b.mode}</span> {b.currency}
                </dt>
                <dd>
                  Available <Money value={b.available} currency={b.currency} />
                </dd>
                <dd className="text-slate-500">
                  Pending <Money value={b.pending} currency={b.currency} />
                </dd>
              </div>
            ))}
          </dl>
        </Card>
        <Card title="Fee rates">
          <FeeRatesForm tenantId={tenant.id} invoiceFeeRate={tenant.invoiceFeeRate} withdrawalFeeRate={tenant.withdrawalFeeRate} />
          <p className="mt-3 text-sm text-slate-500" data-testid="underpayment-tolerance">
            Underpayment tolerance {new Decimal(tenant.underpaymentTolerancePercent).toFixed()}% (set by the merchant)
          </p>
        </Card>
        <Card title="Status" className="lg:col-span-2">
          <TenantStatusForm tenantId={tenant.id} status={tenant.status} />
        </Card>
        <Card title={`API keys (${keys.length})`} className="lg:col-span-2">
          <ScrollTable className="-m-5">
            <table className={tableClass}>
              <thead>
                <tr>
                  <th className={thClass}>Name</th>
                  <th className={thClass}>Key</th>
                  <th className={thClass}>Mode</th>
                  <th className={thClass}>Scopes</th>
                  <th className={thClass}>Status</th>
                  <th className={thClass}>Last used</th>
                </tr>
              </thead>
              <tbody>
                {keys.map((k) => (
                  <tr key={k.id}>
                    <td className={tdClass}>{k.name}</td>
                    <td className={`${tdClass} font-mono text-xs`}>
                      {k.keyPrefix}…{k.lastFour}
                    </td>
                    <td className={tdClass}>{k.mode}</td>
                    <td className={`${tdClass} max-w-72 whitespace-normal text-xs`}>{k.scopes.join(', ')}</td>
                    <td className={tdClass}>
                      <StatusBadge status={k.status} />
                    </td>
                    <td className={`${tdClass} text-xs`}>
                      <Time iso={k.lastUsedAt?.toISOString()} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
        </Card>
        <Card title="Team">
          {team.length === 0 ? (
            <p className="text-sm text-slate-500">No dashboard users (API only).</p>
          ) : (
            <ul className="space-y-1 text-sm">
              {team.map((u) => (
                <li key={u.id}>
                  {u.email} <span className="text-slate-500">· {u.role}</span>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card title="Webhook endpoints">
          {endpoints.length === 0 && <p className="text-sm text-slate-500">No endpoints.</p>}
          <ul className="space-y-1 text-sm">
            {endpoints.map((e) => (
              <li key={e.id} className="truncate">
                <span className="font-mono text-xs">{e.id}</span> {e.mode} {e.url}{' '}
                {e.enabled ? '' : `(disabled${e.disabledReason ? `: ${e.disabledReason}` : ''})`}
              </li>
            ))}
          </ul>
        </Card>
        <Card title="Recent activity" className="lg:col-span-2">
          <AuditTable rows={audit.rows} />
        </Card>
      </div>
    </>
  );
}
