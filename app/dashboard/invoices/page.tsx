import Link from 'next/link';
import { StatusBadge } from '@/components/ui/badge';
import { OverpaidBadge } from '@/components/dashboard/overpaid-badge';
import { buttonClass } from '@/components/ui/button';
import { Card, EmptyState, PageHeader, tableClass, tdClass, thClass } from '@/components/ui/card';
import { inputClass } from '@/components/ui/field';
import { Money } from '@/components/ui/money';
import { Pagination } from '@/components/ui/pagination';
import { Time } from '@/components/ui/time';
import { requireContext } from '@/lib/dashboard/context';
import { parseInvoiceFilters } from '@/lib/dashboard/invoice-filters';
import { listDashboardInvoices } from '@/lib/dashboard/list-invoices';
import { can } from '@/lib/dashboard/permissions';
import { INVOICE_STATUSES } from '@/db/schema/invoices';
import { tenantRails } from '@/lib/tenants/tenant-rails';
import { CreateInvoiceButton } from './create-invoice';

export const metadata = { title: 'Invoices' };

export default async function InvoicesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const ctx = await requireContext();
  const filters = parseInvoiceFilters(await searchParams);
  const { data, meta } = await listDashboardInvoices(ctx.db, ctx.owner, filters);
  const params = { status: filters.status, from: filters.from, to: filters.to, q: filters.q };
  const exportQuery = new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => Boolean(e[1]))).toString();
  const filtered = Object.values(params).some(Boolean);
  return (
    <>
      <PageHeader
        title="Invoices"
        description="Payment requests with their own deposit address."
        actions={
          <>
            <a className={buttonClass('secondary')} href={`/dashboard/invoices/export${exportQuery ? `?${exportQuery}` : ''}`} download>
              Export CSV
            </a>
            {can(ctx.user.role, 'invoices:create') && <CreateInvoiceButton rails={tenantRails(ctx.tenant, ctx.mode)} />}
          </>
        }
      />
      <Card className="mb-4">
        <form method="get" className="grid grid-cols-1 items-end gap-3 sm:grid-cols-2 lg:grid-cols-[1fr_10rem_9.5rem_9.5rem_auto]" role="search">
          <div>
            <label htmlFor="q" className="mb-1 block text-xs font-medium text-slate-600">
              Search
            </label>
            <input
              id="q"
              name="q"
              defaultValue={filters.q}
              placeholder="Invoice id, externalId, deposit address or payment link id"
              className={inputClass}
            />
          </div>
          <div>
            <label htmlFor="status" className="mb-1 block text-xs font-medium text-slate-600">
              Status
            </label>
            <select id="status" name="status" defaultValue={filters.status ?? ''} className={inputClass}>
              <option value="">All</option>
              {INVOICE_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s.replace(/_/g, ' ').toLowerCase()}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="from" className="mb-1 block text-xs font-medium text-slate-600">
              Created from
            </label>
            <input id="from" name="from" type="date" defaultValue={filters.from} className={inputClass} />
          </div>
          <div>
            <label htmlFor="to" className="mb-1 block text-xs font-medium text-slate-600">
              Created to
            </label>
            <input id="to" name="to" type="date" defaultValue={filters.to} className={inputClass} />
          </div>
          <div className="flex gap-2">
            <button type="submit" className={buttonClass('primary')}>
              Apply
            </button>
            {filtered && (
              <Link href="/dashboard/invoices" className={buttonClass('ghost')}>
                Clear
              </Link>
            )}
          </div>
        </form>
      </Card>
      <Card>
        <div className="-m-5">
          {data.length === 0 ? (
            <EmptyState title={filtered ? 'No invoices match these filters' : 'No invoices yet'}>
              {filtered ? 'Try another status, date range or search.' : 'Create one here or with POST /v1/invoices.'}
            </EmptyState>
          ) : (
            <div className="overflow-x-auto">
              <table className={tableClass}>
                <thead>
                  <tr>
                    {['Amount', 'Status', 'Invoice', 'External id', 'Received', 'Created'].map((h) => (
                      <th key={h} className={thClass}>
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {data.map((inv) => (
                    <tr key={inv.id} className="hover:bg-slate-50">
                      <td className={`${tdClass} font-medium text-slate-900`}>
                        <Money value={inv.amountExpected} currency={inv.token} />
                      </td>
                      <td className={tdClass}>
                        <StatusBadge status={inv.status} />
                        <OverpaidBadge status={inv.status} expected={inv.amountExpected} received={inv.amountReceived} token={inv.token} />
                      </td>
                      <td className={`${tdClass} font-mono text-xs`}>
                        <Link href={`/dashboard/invoices/${inv.id}`} className="text-indigo-600 hover:underline">
                          {inv.id}
                        </Link>
                      </td>
                      <td className={`${tdClass} max-w-40 truncate`}>{inv.externalId ?? '—'}</td>
                      <td className={tdClass}>
                        <Money value={inv.amountReceived} currency={inv.token} />
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
          <Pagination basePath="/dashboard/invoices" params={params} page={meta.page} lastPage={meta.lastPage} total={meta.total} />
        </div>
      </Card>
    </>
  );
}
