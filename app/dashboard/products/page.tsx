import Link from 'next/link';
import { StatusBadge } from '@/components/ui/badge';
import { Card, EmptyState, PageHeader, tableClass, tdClass, thClass } from '@/components/ui/card';
import { Money } from '@/components/ui/money';
import { STORE_CURRENCY } from '@/lib/storefront/store-currency';
import { Pagination } from '@/components/ui/pagination';
import { requireContext } from '@/lib/dashboard/context';
import { can } from '@/lib/dashboard/permissions';
import { listProducts } from '@/lib/storefront/products';
import { ListProductsQuery } from '@/lib/storefront/schemas';
import { getTenantSlug } from '@/lib/storefront/get-tenant-slug';
import { ProductActions, ProductFormButton } from './product-form';

export const metadata = { title: 'Products' };

export default async function ProductsPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const ctx = await requireContext();
  const canManage = can(ctx.user.role, 'products:manage');
  const sp = await searchParams;
  const parsed = ListProductsQuery.safeParse({ page: sp.page, limit: '25', active: sp.active });
  const q = parsed.success ? parsed.data : { page: 1, limit: 25, active: undefined };
  const [{ data, meta }, slug] = await Promise.all([listProducts(ctx.db, ctx.owner, q), getTenantSlug(ctx.db, ctx.tenant.id)]);
  const storeUrl = `/store/${slug}${ctx.mode === 'test' ? '?mode=test' : ''}`;
  return (
    <>
      <PageHeader
        title="Products"
        description={
          <>
            Sold on your public store page,{' '}
            <Link href={storeUrl} className="text-indigo-600 hover:underline" data-testid="store-link">
              {storeUrl}
            </Link>
            .
          </>
        }
        actions={
          canManage ? (
            <ProductFormButton />
          ) : (
            <span className="text-sm text-slate-500" data-testid="products-owner-only">
              Only the owner can change products.
            </span>
          )
        }
      />
      <nav aria-label="Product filter" className="mb-4 flex gap-3 text-sm">
        {[
          ['All', undefined],
          ['Active', 'true'],
          ['Archived', 'false'],
        ].map(([label, v]) => (
          <Link
            key={label}
            href={v ? `/dashboard/products?active=${v}` : '/dashboard/products'}
            aria-current={q.active === v ? 'page' : undefined}
            className={q.active === v ? 'font-semibold text-indigo-700' : 'text-slate-600 hover:underline'}
          >
            {label}
          </Link>
        ))}
      </nav>
      <Card>
        {data.length === 0 ? (
          <EmptyState title="No products yet">Add one, and it appears on your store page.</EmptyState>
        ) : (
          <div className="-m-5 overflow-x-auto">
            <table className={tableClass}>
              <thead>
                <tr>
                  <th className={thClass}>Name</th>
                  <th className={thClass}>Price</th>
                  <th className={thClass}>Status</th>
                  <th className={thClass}>Id</th>
                  <th className={thClass} />
                </tr>
              </thead>
              <tbody>
                {data.map((p) => (
                  <tr key={p.id} data-product-id={p.id}>
                    <td className={`${tdClass} whitespace-normal`}>
                      <span className="font-medium text-slate-900">{p.name}</span>
                      {p.description && <div className="line-clamp-1 text-xs text-slate-500">{p.description}</div>}
                    </td>
                    <td className={tdClass}>
                      <Money value={p.price} currency={STORE_CURRENCY} />
                    </td>
                    <td className={tdClass}>
                      <StatusBadge status={p.active ? 'ACTIVE' : 'ARCHIVED'} />
                    </td>
                    <td className={`${tdClass} font-mono text-xs`}>{p.id}</td>
                    <td className={`${tdClass} text-right`}>{canManage && <ProductActions product={p} />}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <Pagination basePath="/dashboard/products" params={{ active: q.active }} page={meta.page} lastPage={meta.lastPage} total={meta.total} />
    </>
  );
}
