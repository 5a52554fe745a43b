import Link from 'next/link';
import { notFound } from 'next/navigation';
import { StatusBadge } from '@/components/ui/badge';
import { Card, PageHeader, tableClass, tdClass, thClass } from '@/components/ui/card';
import { Money } from '@/components/ui/money';
import { STORE_CURRENCY } from '@/lib/storefront/store-currency';
import { Time } from '@/components/ui/time';
import { isId } from '@/lib/ids';
import { requireContext } from '@/lib/dashboard/context';
import { ApiError } from '@/lib/api/errors';
import { getOrderOrThrow } from '@/lib/storefront/orders';
import { orderView } from '@/lib/storefront/views';
import { OrderActions } from '../order-actions';

export const metadata = { title: 'Order' };

export default async function OrderPage({ params }: { params: Promise<{ id: string }> }) {
  const ctx = await requireContext();
  const { id } = await params;
  if (!isId('order', id)) notFound();
  // Another tenant's (or mode's) order is a 404, like an unknown one.
  const row = await getOrderOrThrow(ctx.db, { id, ...ctx.owner }).catch((e) => {
    if (e instanceof ApiError && e.code === 'not_found') notFound();
    throw e;
  });
  const o = orderView(row);
  return (
    <>
      <PageHeader
        title={`Order ${o.id}`}
        description={<>Customer {o.customerEmail}</>}
        actions={
          <span className="flex items-center gap-3">
            <span data-testid="order-status">
              <StatusBadge status={o.status} />
            </span>
            <OrderActions id={o.id} status={o.status} />
          </span>
        }
      />
      <div className="grid gap-4 lg:grid-cols-3">
        <Card title="Items" className="lg:col-span-2">
          <div className="-m-5 overflow-x-auto">
            <table className={tableClass}>
              <thead>
                <tr>
                  <th className={thClass}>Product</th>
                  <th className={thClass}>Unit price</th>
                  <th className={thClass}>Qty</th>
                  <th className={thClass}>Amount</th>
                </tr>
              </thead>
              <tbody>
                {o.items.map((i) => (
                  <tr key={i.productId}>
                    <td className={tdClass}>{i.name}</td>
                    <td className={tdClass}>
                      <Money value={i.unitPrice} currency={STORE_CURRENCY} />
                    </td>
                    <td className={tdClass}>{i.quantity}</td>
                    <td className={tdClass}>
                      <Money value={i.amount} currency={STORE_CURRENCY} />
                    </td>
                  </tr>
                ))}
                <tr>
                  <td className={`${tdClass} font-semibold`} colSpan={3}>
                    Total
                  </td>
                  <td className={`${tdClass} font-semibold`} data-testid="order-total">
                    <Money value={o.total} currency={STORE_CURRENCY} />
                  </td>
                </tr>
              </tbody>
            </table>
          </div>
        </Card>
        <Card title="Payment">
          <dl className="space-y-2 text-sm">
            <div>
              <dt className="text-slate-500">Invoice</dt>
              <dd>
                <Link href={`/dashboard/invoices/${o.invoiceId}`} className="font-mono text-xs text-indigo-600 hover:underline">
                  {o.invoiceId}
                </Link>
              </dd>
            </div>
            <div>
              <dt className="text-slate-500">Checkout page</dt>
              <dd>
                <a href={o.checkoutUrl} className="break-all text-indigo-600 hover:underline">
                  {o.checkoutUrl}
                </a>
              </dd>
            </div>
            <div>
              <dt className="text-slate-500">Created</dt>
              <dd>
                <Time iso={o.createdAt} />
              </dd>
            </div>
            <div>
              <dt className="text-slate-500">Paid</dt>
              <dd>
                <Time iso={o.paidAt} />
              </dd>
            </div>
            <div>
              <dt className="text-slate-500">Fulfilled</dt>
              <dd>
                <Time iso={o.fulfilledAt} />
              </dd>
            </div>
            {o.cancelledAt && (
              <div>
                <dt className="text-slate-500">Cancelled</dt>
                <dd>
                  <Time iso={o.cancelledAt} /> {o.cancelReason && `(${o.cancelReason})`}
                </dd>
              </div>
            )}
          </dl>
        </Card>
      </div>
    </>
  );
}
