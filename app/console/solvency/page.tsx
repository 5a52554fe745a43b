import Link from 'next/link';
import { DifferenceSparkline } from '@/components/charts/lazy-charts';
import { Badge } from '@/components/ui/badge';
import { Card, EmptyState, PageHeader, tableClass, tdClass, thClass } from '@/components/ui/card';
import { formatIn, Money } from '@/components/ui/money';
import { ScrollTable } from '@/components/ui/scroll-hint';
import { formatTime } from '@/components/ui/time';
import { anyNetworkLabel, networkLabel } from '@/lib/checkout/network-label';
import { requireSupport } from '@/lib/console/context';
import { listOpenAlerts, listOperatorEvents } from '@/lib/operator/list-alerts';
import { latestSolvency, lineId } from '@/lib/solvency/latest-run';
import { SolvencyDrillDown } from './drill-down';

export const metadata = { title: 'Solvency · Support console' };

const TONE = { ok: 'green', shortfall: 'red', error: 'amber' } as const;
const LABEL = { ok: 'covered', shortfall: 'shortfall', error: 'unreadable' } as const;

/** An alert's or event's subject (`test:BSC:USDT`, lib/solvency/record-run.ts subjectOf) as the table names the line. */
function subjectLabel(subject: string): string {
  const [mode, chain, asset] = subject.split(':');
  return chain && asset ? `${mode} ${anyNetworkLabel(chain)} ${asset}` : subject;
}

/** A difference recorded with an alert or event, in its asset's display precision. */
function differenceOf(subject: string, value: unknown): string {
  const asset = subject.split(':')[2] ?? '';
  return asset ? `${formatIn(String(value), asset)} ${asset}` : String(value);
}

// Read-only: the figures come from the solvency job's latest run (lib/solvency); nothing here moves money.
export default async function SolvencyPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const ctx = await requireSupport();
  const selected = (await searchParams).line;
  const [view, alerts, events] = await Promise.all([latestSolvency(ctx.db), listOpenAlerts(ctx.db), listOperatorEvents(ctx.db, 20)]);
  const { run, lines, history } = view;
  const line = lines.find((l) => lineId(l) === selected);
  return (
    <>
      <PageHeader
        title="Solvency"
        description="Per mode, network and token: what the chain holds (hot wallet and deposit addresses with credited dust, held payments or a sweep in flight), read at the block shown, against what is owed (tenant balances on that network, withdrawals not yet mined, held payments). Gas wallets against their floor."
      />
      {alerts.length > 0 && (
        <Card title="Open alerts" className="mb-6">
          <ul className="space-y-1 text-sm" data-testid="solvency-alerts">
            {alerts.map((a) => (
              <li key={a.id} className="text-red-700">
                {a.kind === 'solvency_shortfall' ? 'Shortfall' : 'Gas wallet below floor'} · {subjectLabel(a.subject)} · difference{' '}
                {differenceOf(a.subject, a.data.difference)} · since {formatTime(a.openedAt.toISOString())}
              </li>
            ))}
          </ul>
        </Card>
      )}
      <Card
        title={run ? `Latest run ${formatTime(run.createdAt.toISOString(), true)}` : 'Latest run'}
        actions={run && <Badge tone={TONE[run.status]}>{run.status}</Badge>}
        className="mb-6"
      >
        {!run ? (
          <EmptyState title="No solvency run yet">The worker runs the solvency job every minute (SOLVENCY_EVERY_SECONDS).</EmptyState>
        ) : (
          <div className="-m-5">
            {run.error && <p className="border-b border-amber-100 bg-amber-50 px-5 py-2 text-sm text-amber-800">Read failed: {run.error}</p>}
            <ScrollTable>
              <table className={`${tableClass} [&_td]:px-3 [&_th]:px-3`} data-testid="solvency-table">
                <thead>
                  <tr>
                    {['Network', 'Asset', 'Block', 'Held', 'Owed', 'Difference', 'Status', 'Last runs', ''].map((h, i) => (
                      <th key={i} className={thClass}>
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {lines.map((l) => {
                    return (
                      <tr key={lineId(l)} data-solvency-line={lineId(l)}>
                        <td className={`${tdClass} whitespace-normal`}>
                          <div className="min-w-36">{networkLabel(l.chain)}</div>
                          <div className="text-xs text-slate-400">{l.mode}</div>
                        </td>
                        <td className={tdClass}>
                          {l.asset}
                          {l.kind === 'gas' && <div className="text-xs text-slate-400">gas wallet</div>}
                        </td>
                        <td className={`${tdClass} font-mono text-xs`}>{l.blockNumber ?? '—'}</td>
                        <td className={tdClass}>{l.held === null ? 'unreadable' : <Money value={l.held} currency={null} shownIn={l.asset} />}</td>
                        <td className={tdClass} title={l.kind === 'gas' ? 'floor' : undefined}>
                          <Money value={l.owed} currency={null} shownIn={l.asset} />
                          {l.kind === 'gas' && <span className="ml-1 text-xs text-slate-400">floor</span>}
                        </td>
                        <td className={`${tdClass} ${l.status === 'shortfall' ? 'font-semibold text-red-700' : ''}`} data-testid="difference">
                          {l.difference === null ? '—' : <Money value={l.difference} currency={null} shownIn={l.asset} />}
                        </td>
                        <td className={tdClass}>
                          <Badge tone={TONE[l.status]}>{LABEL[l.status]}</Badge>
                          {l.error && (
                            <div className="max-w-48 truncate text-xs text-amber-700" title={l.error}>
                              {l.error}
                            </div>
                          )}
                        </td>
                        <td className={tdClass}>
                          <div className="h-8 w-24">
                            <DifferenceSparkline points={history[lineId(l)] ?? []} />
                          </div>
                        </td>
                        <td className={tdClass}>
                          <Link href={`/console/solvency?line=${encodeURIComponent(lineId(l))}`} className="text-indigo-600 hover:underline">
                            Addresses
                          </Link>
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </ScrollTable>
            {run.unattributed.length > 0 && (
              <p className="border-t border-slate-100 px-5 py-2 text-xs text-slate-500">
                Not on any network&apos;s line (ledger entries without a settlement or withdrawal, or on a network no longer enabled):{' '}
                {run.unattributed.map((u) => `${u.mode} ${formatIn(u.amount, u.asset)} ${u.asset}`).join(', ')}
              </p>
            )}
          </div>
        )}
      </Card>
      {line && <SolvencyDrillDown line={line} />}
      <Card title="Operator events">
        {events.length === 0 ? (
          <EmptyState title="No operator events" />
        ) : (
          <ul className="space-y-1 text-sm" data-testid="operator-events">
            {events.map((e) => (
              <li key={e.id}>
                <span className="tabular-nums text-slate-500">{formatTime(e.createdAt.toISOString(), true)}</span> · {e.type} ·{' '}
                {subjectLabel(e.subject)}
                {e.data.difference !== undefined && <> · difference {differenceOf(e.subject, e.data.difference)}</>}
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}
