import Link from 'next/link';
import { StatusBadge } from '@/components/ui/badge';
import { Card, EmptyState, PageHeader, tableClass, tdClass, thClass } from '@/components/ui/card';
import { inputClass } from '@/components/ui/field';
import { Money } from '@/components/ui/money';
import { formatTime } from '@/components/ui/time';
import { TxLink } from '@/components/ui/tx-link';
import { requireSupport } from '@/lib/console/context';
import { formatAge, KNOWN_HELD_STATUSES, listHeldPayments, HeldPaymentFilter } from '@/lib/console/list-held-payments';
import { ScrollTable } from '@/components/ui/scroll-hint';
import { anyNetworkLabel } from '@/lib/checkout/network-label';

export const metadata = { title: 'Held payments · Support console' };

const short = (a: string) => `${a.slice(0, 8)}…${a.slice(-6)}`;

/** What the payer used, with what the invoice asked for underneath when it differs. */
const Versus = ({ used, asked }: { used: string; asked: string | null }) => (
  <>
    {used}
    {asked !== used && <div className="text-xs text-slate-500">invoice: {asked ?? '?'}</div>}
  </>
);

// Read-only on purpose: the money is the merchant's to credit or return (dashboard and /v1), not support's.
export default async function HeldPaymentsPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const ctx = await requireSupport();
  const params = await searchParams;
  const f = HeldPaymentFilter.parse(params);
  const { rows, capped } = await listHeldPayments(ctx.db, f);
  // A status given in the URL that the schema does not list yet still shows as selected.
  const statuses = [...new Set([...KNOWN_HELD_STATUSES, 'reorged', f.status])].filter((s) => s !== 'all');
  const now = new Date();
  return (
    <>
      <PageHeader
        title="Held payments"
        description="Sent to an invoice's deposit address on another network or in another token, across tenants. The money stays on the deposit address until the merchant resolves it; support only looks."
      />
      <form className="mb-4 grid max-w-3xl gap-3 sm:grid-cols-4" aria-label="Filters">
        <div>
          <label htmlFor="m-status" className="block text-xs font-medium text-slate-600">
            Status
          </label>
          <select id="m-status" name="status" defaultValue={f.status} className={inputClass}>
            {statuses.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
            <option value="all">all</option>
          </select>
        </div>
        <div>
          <label htmlFor="m-mode" className="block text-xs font-medium text-slate-600">
            Mode
          </label>
          <select id="m-mode" name="mode" defaultValue={f.mode} className={inputClass}>
            <option value="all">all</option>
            <option value="live">live</option>
            <option value="test">test</option>
          </select>
        </div>
        <div>
          <label htmlFor="m-tenantId" className="block text-xs font-medium text-slate-600">
            Tenant id
          </label>
          <input id="m-tenantId" name="tenantId" defaultValue={params.tenantId ?? ''} placeholder="ten_…" className={inputClass} />
        </div>
        <div className="flex items-end">
          <button
            type="submit"
            className="h-9 w-full rounded-md border border-slate-300 bg-white px-4 text-sm font-medium text-slate-800 hover:bg-slate-50"
          >
            Filter
          </button>
        </div>
      </form>
      <Card>
        {rows.length === 0 ? (
          <EmptyState title={f.status === 'all' || f.status === 'held' ? 'No held payments' : `No ${f.status} held payments`} />
        ) : (
          <ScrollTable className="-m-5">
            <table className={tableClass}>
              <thead>
                <tr>
                  {['Tenant', 'Invoice', 'Network', 'Token', 'Amount', 'Sender', 'Transaction', 'Age', 'Status'].map((h) => (
                    <th key={h} className={thClass}>
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((p) => (
                  <tr key={p.id} data-held-payment={p.id}>
                    <td className={tdClass}>
                      <Link href={`/console/tenants/${p.tenantId}`} className="text-indigo-600 hover:underline">
                        {p.tenantName}
                      </Link>
                      <div className="font-mono text-xs text-slate-400">
                        {p.tenantId} · {p.mode}
                      </div>
                    </td>
                    <td className={`${tdClass} font-mono text-xs`}>{p.invoiceId}</td>
                    <td className={tdClass}>
                      <Versus used={anyNetworkLabel(p.chain)} asked={p.invoiceChain && anyNetworkLabel(p.invoiceChain)} />
                    </td>
                    <td className={tdClass}>
                      <Versus used={p.token} asked={p.invoiceToken} />
                    </td>
                    <td className={tdClass}>
                      <Money value={p.amount} currency={p.token} />
                    </td>
                    <td className={`${tdClass} font-mono text-xs`} title={p.fromAddress}>
                      {short(p.fromAddress)}
                    </td>
                    <td className={tdClass}>
                      <TxLink chainId={p.chainId} hash={p.txHash} />
                    </td>
                    <td className={`${tdClass} text-xs`} title={formatTime(p.createdAt.toISOString())}>
                      {formatAge(p.createdAt, now)}
                    </td>
                    <td className={tdClass}>
                      <StatusBadge status={p.status.toUpperCase()} />
                      {p.reorgedAt && (
                        <div className="mt-1 text-xs font-medium text-red-700" title={formatTime(p.reorgedAt.toISOString())}>
                          dropped by a reorg after it was resolved
                        </div>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
        )}
      </Card>
      {capped && <p className="mt-3 text-xs text-slate-500">Showing the newest {f.limit}; filter by tenant or mode to see older ones.</p>}
    </>
  );
}
