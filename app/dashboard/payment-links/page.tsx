import Link from 'next/link';
import { StatusBadge } from '@/components/ui/badge';
import { Card, EmptyState, PageHeader, tableClass, tdClass, thClass } from '@/components/ui/card';
import { Pagination } from '@/components/ui/pagination';
import { requireContext } from '@/lib/dashboard/context';
import { can } from '@/lib/dashboard/permissions';
import { listPaymentLinks } from '@/lib/payment-links/list-payment-links';
import { ListPaymentLinksQuery } from '@/lib/payment-links/schemas';
import { tenantRails } from '@/lib/tenants/tenant-rails';
import { DisableLinkButton, LinkFormButton } from './link-form';

export const metadata = { title: 'Payment links' };

export default async function PaymentLinksPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const ctx = await requireContext();
  const canManage = can(ctx.user.role, 'payment-links:manage');
  const sp = await searchParams;
  const parsed = ListPaymentLinksQuery.safeParse({ page: sp.page, limit: '25' });
  const q = parsed.success ? parsed.data : { page: 1, limit: 25 };
  const { data, meta } = await listPaymentLinks(ctx.db, ctx.owner, q);
  return (
    <>
      <PageHeader
        title="Payment links"
        description="A reusable page to share: each payer gets an invoice of their own."
        actions={
          canManage ? (
            <LinkFormButton rails={tenantRails(ctx.tenant, ctx.mode)} />
          ) : (
            <span className="text-sm text-slate-500" data-testid="links-owner-only">
              Only the owner can create or disable payment links.
            </span>
          )
        }
      />
      <Card>
        {data.length === 0 ? (
          <EmptyState title="No payment links yet">Create one and share its URL: a donation page, a ticket, an invoice you reuse.</EmptyState>
        ) : (
          <div className="-m-5 overflow-x-auto">
            <table className={tableClass}>
              <thead>
                <tr>
                  <th className={thClass}>Name</th>
                  <th className={thClass}>Amount</th>
                  <th className={thClass}>Status</th>
                  <th className={thClass}>Paid</th>
                  <th className={thClass}>Link</th>
                  <th className={thClass} />
                </tr>
              </thead>
              <tbody>
                {data.map((l) => (
                  <tr key={l.id} data-link-id={l.id}>
                    <td className={`${tdClass} whitespace-normal`}>
                      <span className="font-medium text-slate-900">{l.name}</span>
                      {l.description && <div className="line-clamp-1 text-xs text-slate-500">{l.description}</div>}
                    </td>
                    <td className={`${tdClass} tabular-nums`}>
                      {l.amount ? `${l.amount} ${l.currency}` : `${l.minAmount}–${l.maxAmount} ${l.currency}`}
                      <div className="text-xs text-slate-500">
                        {l.token} on {l.chain}
                      </div>
                    </td>
                    <td className={tdClass}>
                      <StatusBadge status={l.status.toUpperCase()} />
                    </td>
                    <td className={`${tdClass} tabular-nums`}>
                      <Link href={`/dashboard/invoices?q=${l.id}`} className="text-indigo-600 hover:underline">
                        {l.paidCount}
                        {l.maxPayments !== null ? ` / ${l.maxPayments}` : ''}
                      </Link>
                    </td>
                    <td className={`${tdClass} font-mono text-xs`}>
                      <a href={l.url} target="_blank" rel="noreferrer" className="text-indigo-600 hover:underline" data-testid="link-url">
                        {l.url}
                      </a>
                    </td>
                    <td className={`${tdClass} text-right`}>
                      {canManage && l.status !== 'disabled' && <DisableLinkButton id={l.id} name={l.name} />}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </Card>
      <Pagination basePath="/dashboard/payment-links" params={{}} page={meta.page} lastPage={meta.lastPage} total={meta.total} />
    </>
  );
}
