import Link from 'next/link';
import { Card, EmptyState, PageHeader, tableClass, tdClass, thClass } from '@/components/ui/card';
import { Money } from '@/components/ui/money';
import { formatTime } from '@/components/ui/time';
import { requireSupport } from '@/lib/console/context';
import { listScreeningHolds } from '@/lib/console/list-screening-holds';
import { lastImportReport } from '@/lib/screening/newly-listed-report';
import { currentList } from '@/lib/screening/screening-list';
import { reviewHold } from './actions';
import { anyNetworkLabel } from '@/lib/checkout/network-label';
import { ScrollTable } from '@/components/ui/scroll-hint';
import { TouchedReport } from './touched-report';

export const metadata = { title: 'Screening review · Support console' };

/** Payments whose sender is on the SDN snapshot, held at detection, waiting for a compliance user's decision. */
export default async function ScreeningPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const ctx = await requireSupport();
  const params = await searchParams;
  const status = params.status === 'frozen' ? 'frozen' : 'held';
  const rows = await listScreeningHolds(ctx.db, status);
  const report = await lastImportReport(ctx.db);
  const list = currentList();
  const canDecide = ctx.user.role === 'compliance';
  return (
    <>
      <PageHeader
        title="Screening review"
        description={`Payments from senders on the OFAC SDN snapshot (list ${list.version}, published ${list.listDate}), held at detection: not credited, not swept, never sent back automatically. Release screens the sender again and credits the payment as usual (refused while the sender is still listed); keep frozen leaves it with the gateway. ${canDecide ? '' : 'Only compliance users may decide.'}`}
      />
      {params.note ? (
        <p className="mb-3 text-sm text-slate-700" data-testid="screening-note">
          {params.note}
        </p>
      ) : null}
      <p className="mb-3 text-sm">
        <Link href="/console/screening" className="underline">
          awaiting review
        </Link>{' '}
        ·{' '}
        <Link href="/console/screening?status=frozen" className="underline">
          kept frozen
        </Link>
      </p>
      {rows.length === 0 ? (
        <EmptyState title={status === 'held' ? 'No payment awaits review' : 'No payment was kept frozen'} />
      ) : (
        <Card>
          <ScrollTable className="-m-5">
            <table className={tableClass} data-testid="screening-queue">
              <thead>
                <tr>
                  <th className={thClass}>Detected</th>
                  <th className={thClass}>Tenant</th>
                  <th className={thClass}>Amount</th>
                  <th className={thClass}>Sender</th>
                  <th className={thClass}>Invoice</th>
                  <th className={thClass}>Decision</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.id}>
                    <td className={tdClass}>{formatTime(r.createdAt.toISOString())}</td>
                    <td className={tdClass}>
                      {r.tenantName} <span className="text-xs text-slate-500">({r.mode})</span>
                    </td>
                    <td className={tdClass}>
                      <Money value={r.amount} currency={r.token} /> <span className="text-xs text-slate-500">{anyNetworkLabel(r.chain)}</span>
                    </td>
                    <td className={`${tdClass} font-mono text-xs`}>{r.fromAddress}</td>
                    <td className={`${tdClass} font-mono text-xs`}>
                      {r.invoiceId} <span className="text-slate-500">{r.invoiceStatus}</span>
                    </td>
                    <td className={tdClass}>
                      {status === 'held' && canDecide ? (
                        <form action={reviewHold} className="flex gap-2">
                          <input type="hidden" name="paymentId" value={r.id} />
                          <button name="decision" value="release" className="rounded border px-2 py-1 text-xs">
                            Release
                          </button>
                          <button name="decision" value="keep_frozen" className="rounded border px-2 py-1 text-xs">
                            Keep frozen
                          </button>
                        </form>
                      ) : (
                        <span className="text-xs text-slate-500">{status === 'held' ? 'awaiting a compliance user' : 'kept frozen'}</span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
        </Card>
      )}
      <TouchedReport report={report} />
    </>
  );
}
