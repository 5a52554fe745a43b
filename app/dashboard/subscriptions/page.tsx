import Link from 'next/link';
import { StatusBadge } from '@/components/ui/badge';
import { Card, EmptyState, PageHeader, tdClass } from '@/components/ui/card';
import { CardTable } from '@/components/ui/card-table';
import { Time } from '@/components/ui/time';
import { requireContext } from '@/lib/dashboard/context';
import { can } from '@/lib/dashboard/permissions';
import { listEmails } from '@/lib/email/list-emails';
import { listPlans } from '@/lib/subscriptions/list-plans';
import { listSubscriptions } from '@/lib/subscriptions/list-subscriptions';
import { tenantRails } from '@/lib/tenants/tenant-rails';
import { EmailsTable } from './emails-table';
import { every } from './every';
import { PlanFormButton } from './plan-form';
import { SubscriptionFormButton } from './subscription-form';

export const metadata = { title: 'Subscriptions' };

/** Plans, subscriptions and the e-mails sent for them (issue 48), of the header's mode; created here or through the API. */
export default async function SubscriptionsPage() {
  const ctx = await requireContext();
  const canPlans = can(ctx.user.role, 'plans:manage');
  const canSubscribe = can(ctx.user.role, 'subscriptions:manage');
  const [subs, plans, mail] = await Promise.all([
    listSubscriptions(ctx.db, ctx.owner, { page: 1, limit: 50 }),
    listPlans(ctx.db, ctx.owner, { page: 1, limit: 50 }),
    listEmails(ctx.db, ctx.owner, { limit: 50 }),
  ]);
  const rails = tenantRails(ctx.tenant, ctx.mode);
  const planName = new Map(plans.data.map((p) => [p.id, p.name]));
  return (
    <>
      <PageHeader
        title="Subscriptions"
        description={
          <>
            Customers billed every period: each period&apos;s invoice is e-mailed to them (or pulled from their wallet where they allowed it). Also
            through <code className="text-xs">POST /v1/plans</code> and <code className="text-xs">POST /v1/subscriptions</code>.
          </>
        }
        actions={
          <>
            {canPlans ? (
              <PlanFormButton rails={rails} />
            ) : (
              <span className="text-sm text-slate-500" data-testid="plans-owner-only">
                Only the owner can create plans.
              </span>
            )}
            {canSubscribe && <SubscriptionFormButton rails={rails} plans={plans.data} />}
          </>
        }
      />
      <div className="space-y-6">
        <Card title={`Subscriptions (${subs.meta.total})`}>
          {subs.data.length === 0 ? (
            <EmptyState title="No subscriptions yet">A subscription bills its customer every period of its plan.</EmptyState>
          ) : (
            <CardTable columns={['Customer', 'Plan', 'Status', 'Period ends', 'Latest invoice']}>
              {subs.data.map((s) => (
                <tr key={s.id} data-subscription-id={s.id}>
                  <td className={tdClass}>
                    <Link href={`/dashboard/subscriptions/${s.id}`} className="text-indigo-600 hover:underline">
                      {s.customerEmail}
                    </Link>
                  </td>
                  <td className={`${tdClass} tabular-nums`}>
                    {planName.get(s.planId) ?? s.planId}
                    <div className="text-xs text-slate-500">
                      {s.amount} {s.priceCurrency ? `${s.priceCurrency} in ${s.token}` : s.token} on {s.chain}
                    </div>
                  </td>
                  <td className={tdClass}>
                    <StatusBadge status={s.status.toUpperCase()} />
                    {s.cancelAtPeriodEnd && s.status !== 'canceled' && <div className="text-xs text-slate-500">cancels at period end</div>}
                  </td>
                  <td className={tdClass}>
                    <Time iso={s.currentPeriodEnd} />
                  </td>
                  <td className={`${tdClass} font-mono text-xs`}>
                    {s.latestInvoiceId ? (
                      <Link href={`/dashboard/invoices/${s.latestInvoiceId}`} className="text-indigo-600 hover:underline">
                        {s.latestInvoiceId}
                      </Link>
                    ) : (
                      '—'
                    )}
                  </td>
                </tr>
              ))}
            </CardTable>
          )}
        </Card>
        <Card title={`Plans (${plans.meta.total})`}>
          {plans.data.length === 0 ? (
            <EmptyState title="No plans yet">A plan sets the amount, the rail and the billing interval.</EmptyState>
          ) : (
            <CardTable columns={['Plan', 'Amount', 'Billed', 'Trial / grace']}>
              {plans.data.map((p) => (
                <tr key={p.id} data-plan-id={p.id}>
                  <td className={tdClass}>{p.name}</td>
                  <td className={`${tdClass} tabular-nums`}>
                    {p.price ? `${p.price.amount} ${p.price.currency} in ${p.token}` : `${p.amount} ${p.token}`} on {p.chain}
                  </td>
                  <td className={tdClass}>{every(p.interval, p.intervalCount)}</td>
                  <td className={`${tdClass} tabular-nums`}>
                    {p.trialDays} d / {p.graceDays} d
                  </td>
                </tr>
              ))}
            </CardTable>
          )}
        </Card>
        <EmailsTable rows={mail.data} needsAttention={mail.needsAttention} />
      </div>
    </>
  );
}
