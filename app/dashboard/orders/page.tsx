import Link from 'next/link';
import { StatusBadge } from '@/components/ui/badge';
import { Card, EmptyState, PageHeader, tableClass, tdClass, thClass } from '@/components/ui/card';
import { Money } from '@/components/ui/money';
import { STORE_CURRENCY } from '@/lib/storefront/store-currency';
import { Pagination } from '@/components/ui/pagination';
import { Time } from '@/components/ui/time';
import { ORDER_STATUSES } from '@/db/schema/storefront';
import { requireContext } from '@/lib/dashboard/context';
import { listOrders } from '@/lib/storefront/orders';
import { ListOrdersQuery } from '@/lib/storefront/schemas';

export const metadata = { title: 'Orders' };

export default async function OrdersPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const ctx = await requireContext();
  const sp = await searchParams;
  const parsed = ListOrdersQuery.safeParse({ page: sp.page, limit: '25', status: sp.status || undefined });
  const q = parsed.success ? parsed.data : { page: 1, limit: 25, status: undefined };
  const { data, meta } = await listOrders(ctx.db, ctx.owner, q);
  return (
    <>
      <PageHeader title="Orders" description="Orders from your store page and POST /v1/orders." />
      <nav aria-label="Status filter" className="mb-4 flex flex-wrap gap-3 text-sm">
        {[undefined, ...ORDER_STATUSES].map((s) => (
          <Link
            key={s ?? 'all'}
            href={s ? `/dashboard/orders?status=${s}` : '/dashboard/orders'}
            aria-current={q.status === s ? 'page' : undefined}
            className={q.status === s ? 'font-semibold text-indigo-700' : 'text-slate-600 hover:underline'}
          >
            {s ? s.charAt(0) + s.slice(1).toLowerCase().replace('_', ' ') : 'All'}
          </Link>
        ))}
      </nav>
      <Card>
        {data.length === 0 ? (
          <EmptyState title={q.status ? 'No orders with this status' : 'No orders yet'} />
        ) : (
          <div className="-m-5 overflow-x-auto">
            <table className={tableClass}>
              <thead>
                <tr>
                  <th className={thClass}>Order</th>
                  <th className={thClass}>Status</th>
                  <th className={thClass}>Total</th>
                  <th className={thClass}>Customer</th>
                  <th className={thClass}>Items</th>
                  <th className={thClass}>Created</th>
                </tr>
              </thead>
              <tbody>
                {data.map((o) => (
                  <tr key={o.id} data-order-id={o.id}>
                    <td className={`${tdClass} font-mono text-xs`}>
                      <Link href={`/dashboard/orders/${o.id}`} className="text-indigo-600 hover:underline">
                        {o.id}
                      </Link>
                    </td>
                    <td className={tdClass}>
                      <StatusBadge status={o.status} />
                    </td>
                    <td className={tdClass}>
                      <Money value={o.total} currency={STORE_CURRENCY} />
                    </td>
                    <td className={tdClass}>{o.customerEmail}</td>
                    <td className={`${tdClass} max-w-64 truncate`}>{o.items.map((i) => `${i.quantity} × ${i.name}`).join(', ')}</td>
                    <td className={`${tdClass} text-xs`}>
                      <Time iso={o.createdAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <Pagination basePath="/dashboard/orders" params={{ status: q.status }} page={meta.page} lastPage={meta.lastPage} total={meta.total} />
    </>
  );
}
