import { RetryButton } from '@/components/console/retry-button';
import { StatusBadge } from '@/components/ui/badge';
import { Card, EmptyState, PageHeader, tableClass, tdClass, thClass } from '@/components/ui/card';
import { Money } from '@/components/ui/money';
import { Time } from '@/components/ui/time';
import { anyNetworkLabel } from '@/lib/checkout/network-label';
import { requireSupport } from '@/lib/console/context';
import { listStuckWork } from '@/lib/console/list-stuck-work';
import { CHAIN_GONE_TEXT } from '@/lib/invoices/chain-gone-text';
import { readSettlementBacklog } from '@/lib/console/read-settlement-backlog';
import { ScrollTable } from '@/components/ui/scroll-hint';

/** An age in seconds as support reads it: 45 s, 7 min 5 s, 2 h 3 min. */
function age(s: number): string {
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

export const metadata = { title: 'Stuck work · Support console' };

const Tenant = ({ name, id, mode }: { name: string; id: string; mode: string }) => (
  <>
    {name}
    <div className="font-mono text-xs text-slate-400">
      {id} · {mode}
    </div>
  </>
);

export default async function StuckWorkPage() {
  const ctx = await requireSupport();
  const [w, backlog] = await Promise.all([listStuckWork(ctx.db), readSettlementBacklog(ctx.db)]);
  return (
    <>
      <PageHeader
        title="Stuck work"
        description={`The settlement backlog per network, failed payouts, waiting or slow withdrawals (no progress for ${w.stuckAfterMinutes} min), exchange orders that need a person.`}
      />
      <div className="space-y-6">
        <Card title="Settlement backlog">
          {backlog.length === 0 ? (
            <EmptyState title="No open settlements: every paid invoice is swept" />
          ) : (
            <ScrollTable className="-m-5">
              <table className={tableClass}>
                <thead>
                  <tr>
                    <th className={thClass}>Network</th>
                    <th className={thClass}>Open</th>
                    <th className={thClass}>Running</th>
                    <th className={thClass}>Waiting</th>
                    <th className={thClass}>For stake</th>
                    <th className={thClass}>Tenants</th>
                    <th className={thClass}>Oldest</th>
                  </tr>
                </thead>
                <tbody>
                  {backlog.map((b) => (
                    <tr key={`${b.mode}:${b.chainId}`} data-settlement-backlog={`${b.mode}:${b.chain}`}>
                      <td className={tdClass}>
                        {anyNetworkLabel(b.chain)} <span className="text-xs text-slate-400">{b.mode}</span>
                      </td>
                      <td className={tdClass} data-backlog-open>
                        {b.open}
                      </td>
                      <td className={tdClass}>{b.running}</td>
                      <td className={tdClass} title="Backing off: waiting for stake other sweeps hold, or retrying after a failure">
                        {b.waiting}
                      </td>
                      <td className={tdClass} title="TRON sweeps in the fair queue for the energy wallet's stake" data-backlog-stake-queue>
                        {b.stakeQueue}
                      </td>
                      <td className={tdClass}>{b.tenants}</td>
                      <td className={tdClass} data-backlog-oldest={b.oldestAgeSeconds}>
                        {age(b.oldestAgeSeconds)} <span className="font-mono text-xs text-slate-400">{b.oldestId}</span>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollTable>
          )}
        </Card>
        <Card title={`Invoices (${w.invoices.length})`}>
          {w.invoices.length === 0 ? (
            <EmptyState title="No failed or stuck payouts" />
          ) : (
            <ScrollTable className="-m-5">
              <table className={tableClass}>
                <thead>
                  <tr>
                    <th className={thClass}>Invoice</th>
                    <th className={thClass}>Tenant</th>
                    <th className={thClass}>Status</th>
                    <th className={thClass}>Amount</th>
                    <th className={thClass}>Last error</th>
                    <th className={thClass}>Since</th>
                    <th className={thClass} />
                  </tr>
                </thead>
                <tbody>
                  {w.invoices.map((i) => (
                    <tr key={i.id} data-stuck-invoice={i.id}>
                      <td className={`${tdClass} font-mono text-xs`}>{i.id}</td>
                      <td className={tdClass}>
                        <Tenant name={i.tenantName} id={i.tenantId} mode={i.mode} />
                      </td>
                      <td className={tdClass}>
                        <StatusBadge status={i.status} />
                        {i.notWatched && (
                          <div className="mt-1 text-xs text-amber-800" data-testid="chain-gone">
                            {CHAIN_GONE_TEXT}
                          </div>
                        )}
                      </td>
                      <td className={tdClass}>
                        <Money value={i.amount} currency={i.token} />
                      </td>
                      <td className={`${tdClass} max-w-72 truncate text-xs`} title={i.lastError ?? ''}>
                        {i.lastError ?? '—'}
                      </td>
                      <td className={`${tdClass} text-xs`}>
                        <Time iso={i.updatedAt.toISOString()} />
                      </td>
                      <td className={tdClass}>
                        {i.notWatched ? (
                          <span className="text-xs text-slate-500">its chain is gone: nothing to retry</span>
                        ) : i.failedSettlementId ? (
                          <RetryButton kind="settlement" id={i.id} />
                        ) : (
                          <span className="text-xs text-slate-500">job retrying</span>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollTable>
          )}
        </Card>
        <Card title={`Withdrawals (${w.withdrawals.length})`}>
          {w.withdrawals.length === 0 ? (
            <EmptyState title="No waiting or stuck withdrawals" />
          ) : (
            <ScrollTable className="-m-5">
              <table className={tableClass}>
                <thead>
                  <tr>
                    <th className={thClass}>Withdrawal</th>
                    <th className={thClass}>Tenant</th>
                    <th className={thClass}>Status</th>
                    <th className={thClass}>Amount</th>
                    <th className={thClass}>Why</th>
                    <th className={thClass}>Next try</th>
                    <th className={thClass} />
                  </tr>
                </thead>
                <tbody>
                  {w.withdrawals.map((x) => (
                    <tr key={x.id} data-stuck-withdrawal={x.id}>
                      <td className={`${tdClass} font-mono text-xs`}>{x.id}</td>
                      <td className={tdClass}>
                        <Tenant name={x.tenantName} id={x.tenantId} mode={x.mode} />
                      </td>
                      <td className={tdClass}>
                        <StatusBadge status={x.status} />
                      </td>
                      <td className={tdClass}>
                        <Money value={x.amount} currency={x.token} />
                      </td>
                      <td className={`${tdClass} max-w-72 whitespace-normal text-xs`}>
                        {x.pendingReason ?? (x.txHash ? `sent ${x.txHash.slice(0, 12)}…, not mined` : 'signed, not broadcast')}
                      </td>
                      <td className={`${tdClass} text-xs`}>
                        <Time iso={x.nextAttemptAt.toISOString()} />
                      </td>
                      <td className={tdClass}>
                        <RetryButton kind="withdrawal" id={x.id} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollTable>
          )}
        </Card>
        <Card title={`Exchange orders needing attention (${w.exchangeOrders.length})`}>
          {w.exchangeOrders.length === 0 ? (
            <EmptyState title="No exchange order needs a person: none has expired or stopped in an emergency" />
          ) : (
            <ul className="space-y-4">
              {w.exchangeOrders.map((o) => (
                <li key={o.id} className="rounded-md border border-slate-200 p-4 text-sm" data-exchange-order={o.id}>
                  <div className="flex flex-wrap items-center gap-3">
                    <StatusBadge status={o.status ?? 'UNKNOWN'} />
                    <span className="font-mono text-xs">{o.id}</span>
                    <span className="text-slate-500">
                      exchange {o.exchangeId ?? '—'} · {o.purpose} {o.withdrawalId ?? o.invoiceId ?? ''}
                    </span>
                    <span className="text-slate-500">
                      {o.fromAmount ?? '?'} {o.fromCcy} → {o.toAmount ?? '?'} {o.toCcy}
                    </span>
                    <span className="text-slate-500">
                      {o.tenantName} ({o.mode})
                    </span>
                  </div>
                  <p className="mt-2 text-slate-700">
                    <strong>What to do:</strong> {o.advice}
                  </p>
                </li>
              ))}
            </ul>
          )}
        </Card>
      </div>
    </>
  );
}
