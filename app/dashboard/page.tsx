import Link from 'next/link';
import { DeliveryRateChart, StatusChart, VolumeChart } from '@/components/charts/lazy-charts';
import { StatusBadge } from '@/components/ui/badge';
import { Card, EmptyState, PageHeader, tableClass, tdClass, thClass } from '@/components/ui/card';
import { Money } from '@/components/ui/money';
import { Time } from '@/components/ui/time';
import { requireContext } from '@/lib/dashboard/context';
import { listDashboardInvoices } from '@/lib/dashboard/list-invoices';
import { getOverviewStats, PERIODS, type Period } from '@/lib/dashboard/overview-stats';
import { Decimal } from '@/lib/money';
import { getBalanceSummary } from '@/lib/withdrawals/get-balance-summary';
import { ASSETS, DEFAULT_RAIL } from '@/lib/config/rails';

export const metadata = { title: 'Home' };

export default async function OverviewPage({ searchParams }: { searchParams: Promise<{ days?: string }> }) {
  const ctx = await requireContext();
  const requested = Number((await searchParams).days);
  const days: Period = (PERIODS as readonly number[]).includes(requested) ? (requested as Period) : 30;
  // Each asset the gateway takes, the default rail's first: a USDC balance is shown as USDC, never added to USDT.
  const assets = [DEFAULT_RAIL.token, ...ASSETS.filter((a) => a !== DEFAULT_RAIL.token)];
  const [balances, stats, recent] = await Promise.all([
    Promise.all(assets.map((currency) => getBalanceSummary(ctx.db, ctx.owner, { currency }))),
    getOverviewStats(ctx.db, ctx.owner, days),
    listDashboardInvoices(ctx.db, ctx.owner, { page: 1 }, 6),
  ]);
  // The default asset always; another only once it holds or owes something.
  const shown = balances.filter((b, i) => i === 0 || /[1-9]/.test(b.available) || /[1-9]/.test(b.pending));
  const received = stats.series.reduce((s, p) => s.plus(p.received), new Decimal(0)).toFixed();
  const fees = stats.series.reduce((s, p) => s.plus(p.fees), new Decimal(0)).toFixed();
  const delivered = stats.series.reduce((s, p) => s + p.delivered, 0);
  const failed = stats.series.reduce((s, p) => s + p.failed, 0);
  const rate =
    delivered + failed === 0
      ? '—'
      : `${new Decimal(delivered)
          .div(delivered + failed)
          .times(100)
          .toFixed(1)}%`;
  return (
    <>
      <PageHeader
        title={`Welcome, ${ctx.tenant.name}`}
        actions={
          <nav aria-label="Period" className="flex rounded-md border border-slate-300 bg-white p-0.5 text-sm">
            {PERIODS.map((p) => (
              <Link
                key={p}
                href={`/dashboard?days=${p}`}
                aria-current={p === days ? 'true' : undefined}
                className={`rounded px-3 py-1 ${p === days ? 'bg-slate-900 text-white' : 'text-slate-600 hover:bg-slate-100'}`}
              >
                {p} days
              </Link>
            ))}
          </nav>
        }
      />
      <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {[
          ['Available balance', <PerAsset key="a" rows={shown.map((b) => [b.currency, b.available])} />, 'overview-available'],
          ['Pending withdrawals', <PerAsset key="p" rows={shown.map((b) => [b.currency, b.pending])} />, 'overview-pending'],
          [`Received, ${days} days (all stablecoins)`, <Money key="r" value={received} currency="USD" />, 'overview-received'],
          [`Fees, ${days} days (all stablecoins)`, <Money key="f" value={fees} currency="USD" />, 'overview-fees'],
        ].map(([label, value, id]) => (
          <Card key={id as string}>
            <p className="text-sm text-slate-500">{label}</p>
            <p className="mt-1 text-2xl font-semibold text-slate-900" data-testid={id as string}>
              {value}
            </p>
          </Card>
        ))}
      </div>
      <div className="mt-4 grid gap-4 lg:grid-cols-2">
        <Card title="Received volume and fees per day">
          <div className="h-64">
            <VolumeChart series={stats.series} />
          </div>
        </Card>
        <Card title="Invoices by status">
          <div className="h-64">
            {stats.invoicesByStatus.length === 0 ? <EmptyState title="No invoices in this period" /> : <StatusChart data={stats.invoicesByStatus} />}
          </div>
        </Card>
        <Card title={`Webhook delivery success rate · ${rate}`}>
          <div className="h-64">
            {delivered + failed === 0 ? <EmptyState title="No finished deliveries in this period" /> : <DeliveryRateChart series={stats.series} />}
          </div>
        </Card>
        <Card
          title="Recent invoices"
          actions={
            <Link href="/dashboard/invoices" className="text-sm text-indigo-600 hover:underline">
              View all
            </Link>
          }
        >
          {recent.data.length === 0 ? (
            <EmptyState title="No invoices yet">
              <Link href="/dashboard/invoices" className="text-indigo-600 hover:underline">
                Create your first invoice
              </Link>
            </EmptyState>
          ) : (
            <div className="-m-5 overflow-x-auto">
              <table className={tableClass}>
                <thead>
                  <tr>
                    {['Amount', 'Status', 'Created'].map((h) => (
                      <th key={h} className={thClass}>
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {recent.data.map((inv) => (
                    <tr key={inv.id}>
                      <td className={tdClass}>
                        <Link href={`/dashboard/invoices/${inv.id}`} className="font-medium text-indigo-600 hover:underline">
                          <Money value={inv.amountExpected} currency={inv.token} />
                        </Link>
                      </td>
                      <td className={tdClass}>
                        <StatusBadge status={inv.status} />
                      </td>
                      <td className={tdClass}>
                        <Time iso={inv.createdAt} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </Card>
      </div>
    </>
  );
}

/** One line per asset, each in its own unit. */
function PerAsset({ rows }: { rows: [string, string][] }) {
  return (
    <span className="flex flex-col">
      {rows.map(([currency, value]) => (
        <span key={currency} data-asset={currency}>
          <Money value={value} currency={currency} />
        </span>
      ))}
    </span>
  );
}
