import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Badge, StatusBadge } from '@/components/ui/badge';
import { Card, EmptyState, PageHeader, tdClass } from '@/components/ui/card';
import { CardTable } from '@/components/ui/card-table';
import { Time } from '@/components/ui/time';
import { TxLink } from '@/components/ui/tx-link';
import { ApiError } from '@/lib/api/errors';
import { requireContext } from '@/lib/dashboard/context';
import { can } from '@/lib/dashboard/permissions';
import { isId } from '@/lib/ids';
import { listCollectionAttempts } from '@/lib/subscriptions/collect/list-collection-attempts';
import { getPlanOrThrow } from '@/lib/subscriptions/get-plan-or-throw';
import { getSubscription } from '@/lib/subscriptions/load-subscription';
import { every } from '../every';
import { CancelSubscriptionButtons, SendPortalLinkButton } from '../subscription-actions';

export const metadata = { title: 'Subscription' };

const ATTEMPT: Record<string, { label: string; tone: 'green' | 'blue' | 'red' | 'amber' | 'gray' }> = {
  confirmed: { label: 'Collected', tone: 'green' },
  signed: { label: 'Sent, awaiting receipt', tone: 'blue' },
  skipped: { label: 'Not collected: e-mailed', tone: 'amber' },
  failed: { label: 'Reverted: e-mailed', tone: 'red' },
};

/** One subscription: its plan and rail, cancel and the portal link, and its automatic collection attempts (issue 48). */
export default async function SubscriptionPage({ params }: { params: Promise<{ id: string }> }) {
  const ctx = await requireContext();
  const { id } = await params;
  if (!isId('subscription', id)) notFound();
  const where = { id, tenantId: ctx.owner.tenantId, mode: ctx.owner.mode };
  const [sub, collection] = await Promise.all([getSubscription(ctx.db, where), listCollectionAttempts(ctx.db, where)]).catch((err: unknown) => {
    if (err instanceof ApiError && err.code === 'not_found') notFound();
    throw err;
  });
  const plan = await getPlanOrThrow(ctx.db, { id: sub.planId, tenantId: ctx.owner.tenantId, mode: ctx.owner.mode });
  const canManage = can(ctx.user.role, 'subscriptions:manage');
  const live = sub.status !== 'canceled';
  return (
    <>
      <PageHeader
        title={`Subscription ${sub.id}`}
        description={
          <>
            <Link href="/dashboard/subscriptions" className="text-indigo-600 hover:underline">
              Subscriptions
            </Link>{' '}
            · {sub.customerEmail}
          </>
        }
        actions={canManage && live ? <SendPortalLinkButton customerEmail={sub.customerEmail} /> : undefined}
      />
      <div className="space-y-6">
        <Card
          title="Subscription"
          actions={canManage && live ? <CancelSubscriptionButtons id={sub.id} cancelAtPeriodEnd={sub.cancelAtPeriodEnd} /> : undefined}
        >
          <dl className="grid grid-cols-1 gap-x-6 gap-y-3 text-sm sm:grid-cols-2" data-testid="subscription-summary">
            <div>
              <dt className="text-xs text-slate-500">Plan</dt>
              <dd>
                {plan.name}: {sub.amount} {sub.priceCurrency ? `${sub.priceCurrency} in ${sub.token}` : sub.token}{' '}
                {every(plan.interval, plan.intervalCount)}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">Network</dt>
              <dd data-testid="subscription-rail">
                {sub.token} on {sub.chain}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">Status</dt>
              <dd>
                <StatusBadge status={sub.status.toUpperCase()} />
                {sub.cancelAtPeriodEnd && live && (
                  <span className="ml-2 text-xs text-slate-500" data-testid="cancels-at-period-end">
                    cancels at period end
                  </span>
                )}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">Current period</dt>
              <dd>
                <Time iso={sub.currentPeriodStart} /> to <Time iso={sub.currentPeriodEnd} />
              </dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">Latest invoice</dt>
              <dd className="font-mono text-xs">
                {sub.latestInvoiceId ? (
                  <Link href={`/dashboard/invoices/${sub.latestInvoiceId}`} className="text-indigo-600 hover:underline">
                    {sub.latestInvoiceId}
                  </Link>
                ) : (
                  '—'
                )}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-slate-500">Automatic collection</dt>
              <dd data-testid="collection-state">
                {!collection.collection
                  ? 'Not set up: each period is e-mailed'
                  : collection.collection.status === 'active'
                    ? `On, from ${collection.collection.payer}`
                    : `Off (${collection.collection.cancelReason ?? 'turned off'})`}
              </dd>
            </div>
          </dl>
        </Card>
        <Card title="Automatic collection attempts">
          {collection.attempts.length === 0 ? (
            <EmptyState title="No attempts">A period is pulled from the payer&apos;s wallet only where they set up automatic collection.</EmptyState>
          ) : (
            <CardTable columns={['Period', 'Status', 'Reason', 'Amount', 'Transaction', 'Network fee']}>
              {collection.attempts.map((a) => (
                <tr key={a.id} data-attempt-status={a.status}>
                  <td className={tdClass}>
                    <Time iso={a.periodStart} />
                    <div className="font-mono text-xs">
                      <Link href={`/dashboard/invoices/${a.invoiceId}`} className="text-indigo-600 hover:underline">
                        {a.invoiceId}
                      </Link>
                    </div>
                  </td>
                  <td className={tdClass}>
                    <Badge tone={ATTEMPT[a.status]!.tone}>{ATTEMPT[a.status]!.label}</Badge>
                  </td>
                  <td className={tdClass}>{a.reason ?? '—'}</td>
                  <td className={`${tdClass} tabular-nums`}>
                    {a.amount} {sub.token}
                  </td>
                  <td className={tdClass}>{a.txHash ? <TxLink chainId={a.chainId} hash={a.txHash} /> : '—'}</td>
                  <td className={`${tdClass} tabular-nums`}>{a.networkFee === null ? '—' : `${a.networkFee} ${sub.token}`}</td>
                </tr>
              ))}
            </CardTable>
          )}
        </Card>
      </div>
    </>
  );
}
