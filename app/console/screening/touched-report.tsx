import { Card, EmptyState, tableClass, tdClass, thClass } from '@/components/ui/card';
import { Money } from '@/components/ui/money';
import { formatTime } from '@/components/ui/time';
import { ScrollTable } from '@/components/ui/scroll-hint';
import type { lastImportReport, TouchedKind } from '@/lib/screening/newly-listed-report';

const KIND: Record<TouchedKind, string> = {
  allowlist: 'Allow-list entry',
  withdrawal: 'Open withdrawal or refund (stops before signing)',
  refund_request: 'Payer refund proposal',
  payment: 'Payment received (credited to the balance)',
  held_payment: 'Held payment',
};

/** The records the last list import's newly listed addresses touch (lib/screening/newly-listed-report.ts). */
export function TouchedReport({ report }: { report: Awaited<ReturnType<typeof lastImportReport>> }) {
  if (!report) return <EmptyState title="No list was imported yet: the shipped snapshot is in use" />;
  const added = Object.values(report.added).reduce((n, a) => n + (a?.length ?? 0), 0);
  return (
    <section aria-labelledby="touched-title" className="mt-6">
      <h2 id="touched-title" className="mb-2 text-base font-semibold">
        Touched by newly listed addresses
      </h2>
      <p className="mb-3 text-sm text-slate-700" data-testid="touched-summary">
        The import of {formatTime(report.at.toISOString())} (list {report.version}, published {report.listDate}) listed {added} new{' '}
        {added === 1 ? 'address' : 'addresses'}; {report.touched.length} existing{' '}
        {report.touched.length === 1 ? 'record involves' : 'records involve'} them.
      </p>
      {report.touched.length === 0 ? null : (
        <Card>
          <ScrollTable className="-m-5">
            <table className={tableClass} data-testid="touched-report">
              <thead>
                <tr>
                  <th className={thClass}>Tenant</th>
                  <th className={thClass}>Record</th>
                  <th className={thClass}>Address</th>
                  <th className={thClass}>Amount</th>
                  <th className={thClass}>Status</th>
                  <th className={thClass}>Invoice</th>
                </tr>
              </thead>
              <tbody>
                {report.touched.map((r) => (
                  <tr key={`${r.kind}:${r.id}`}>
                    <td className={tdClass}>
                      {r.tenantName} <span className="text-xs text-slate-500">({r.mode})</span>
                    </td>
                    <td className={tdClass}>
                      {KIND[r.kind]} <span className="font-mono text-xs text-slate-500">{r.id}</span>
                    </td>
                    <td className={`${tdClass} font-mono text-xs`}>{r.address}</td>
                    <td className={tdClass}>{r.amount && r.token ? <Money value={r.amount} currency={r.token} /> : (r.amount ?? '')}</td>
                    <td className={tdClass}>{r.status ?? ''}</td>
                    <td className={`${tdClass} font-mono text-xs`}>{r.invoiceId ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
        </Card>
      )}
    </section>
  );
}
