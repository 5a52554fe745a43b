import Link from 'next/link';
import { StatusBadge } from '@/components/ui/badge';
import { Card, EmptyState, PageHeader, tableClass, tdClass, thClass } from '@/components/ui/card';
import { ScrollTable } from '@/components/ui/scroll-hint';
import { Time } from '@/components/ui/time';
import { requireContext } from '@/lib/dashboard/context';
import { listEmails } from '@/lib/email/list-emails';
import { listPlans } from '@/lib/subscriptions/list-plans';
import { listSubscriptions } from '@/lib/subscriptions/list-subscriptions';
import { EmailsTable } from './emails-table';

export const metadata = { title: 'Subscriptions' };

const every = (interval: string, count: number) => (count === 1 ? `every ${interval}` : `every ${count} ${interval}s`);

/** Plans, subscriptions and the e-mails sent for them (issue 48): read here, created through /v1/plans and /v1/subscriptions. */
export default async function SubscriptionsPage() {
  const ctx = await requireContext();
  const [subs, plans, mail] = await Promise.all([
    listSubscriptions(ctx.db, ctx.owner, { page: 1, limit: 50 }),
    listPlans(ctx.db, ctx.owner, { page: 1, limit: 50 }),
    listEmails(ctx.db, ctx.owner, { limit: 50 }),
  ]);
  const planName = new Map(plans.data.map((p) => [p.id, p.name]));
  return (
    <>
      <PageHeader
        title="Subscriptions"
        description={
          <>
            Customers billed every period: each period&apos;s invoice is e-mailed to them (or pulled from their wallet where they allowed it). Create
            plans and subscriptions with <code className="text-xs">POST /v1/plans</code> and <code className="text-xs">POST /v1/subscriptions</code>.
          </>
        }
      />
      <div className="space-y-6">
        <Card title={`Subscriptions (${subs.meta.total})`}>
          {subs.data.length === 0 ? (
            <EmptyState title="No subscriptions yet">A subscription bills its customer every period of its plan.</EmptyState>
          ) : (
            <ScrollTable className="-m-5">
              <table className={tableClass}>
                <thead>
                  <tr>
                    <th className={thClass}>Customer</th>
                    <th className={thClass}>Plan</th>
                    <th className={thClass}>Status</th>
                    <th className={thClass}>Period ends</th>
                    <th className={thClass}>Latest invoice</th>
                  </tr>
                </thead>
                <tbody>
                  {subs.data.map((s) => (
                    <tr key={s.id} data-subscription-id={s.id}>
                      <td className={tdClass}>{s.customerEmail}</td>
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
                </tbody>
              </table>
            </ScrollTable>
          )}
        </Card>
        <Card title={`Plans (${plans.meta.total})`}>
          {plans.data.length === 0 ? (
            <EmptyState title="No plans yet">A plan sets the amount, the rail and the billing interval.</EmptyState>
          ) : (
            <ScrollTable className="-m-5">
              <table className={tableClass}>
                <thead>
                  <tr>
                    <th className={thClass}>Plan</th>
                    <th className={thClass}>Amount</th>
                    <th className={thClass}>Billed</th>
                    <th className={thClass}>Trial / grace</th>
                  </tr>
                </thead>
                <tbody>
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
                </tbody>
              </table>
            </ScrollTable>
          )}
        </Card>
        <EmailsTable rows={mail.data} needsAttention={mail.needsAttention} />
      </div>
    </>
  );
}
