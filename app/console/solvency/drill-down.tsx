import Link from 'next/link';
import { Card, tableClass, tdClass, thClass } from '@/components/ui/card';
import { Money } from '@/components/ui/money';
import type { SolvencyLine } from '@/db/schema';
import { networkLabel } from '@/lib/checkout/network-label';
import { ScrollTable } from '@/components/ui/scroll-hint';

const ROLE = { hot: 'hot wallet', deposit: 'deposit address', gas: 'gas wallet' } as const;

/** The addresses that make up one line's "held", and what "owed" is made of. */
export function SolvencyDrillDown({ line }: { line: SolvencyLine }) {
  return (
    <Card
      title={`${line.mode} ${networkLabel(line.chain)} ${line.asset}${line.kind === 'gas' ? ' gas wallet' : ''} at block ${line.blockNumber ?? '—'}`}
      actions={
        <Link href="/console/solvency" className="text-sm text-indigo-600 hover:underline">
          Close
        </Link>
      }
      className="mb-6"
    >
      {line.owedParts && (
        <dl className="mb-4 grid max-w-2xl grid-cols-3 gap-3 text-sm" data-testid="owed-parts">
          <div>
            <dt className="text-xs text-slate-500">Tenant balances on this network</dt>
            <dd>
              <Money value={line.owedParts.balances} currency={line.asset} shownIn={line.asset} />
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500">Withdrawals not yet mined</dt>
            <dd>
              <Money value={line.owedParts.withdrawalsInFlight} currency={line.asset} shownIn={line.asset} />
            </dd>
          </div>
          <div>
            <dt className="text-xs text-slate-500">Held payments</dt>
            <dd>
              <Money value={line.owedParts.heldPayments} currency={line.asset} shownIn={line.asset} />
            </dd>
          </div>
        </dl>
      )}
      {line.holdings === null ? (
        <p className="text-sm text-amber-700">Not read: {line.error}</p>
      ) : (
        <ScrollTable className="-mx-5 -mb-5">
          <table className={tableClass} data-testid="holdings">
            <thead>
              <tr>
                <th className={thClass}>Address</th>
                <th className={thClass}>Role</th>
                <th className={thClass}>Amount</th>
              </tr>
            </thead>
            <tbody>
              {line.holdings.map((h) => (
                <tr key={`${h.role}:${h.address}`}>
                  <td className={`${tdClass} font-mono text-xs`}>{h.address}</td>
                  <td className={tdClass}>{ROLE[h.role]}</td>
                  <td className={tdClass}>
                    <Money value={h.amount} currency={line.asset} shownIn={line.asset} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollTable>
      )}
    </Card>
  );
}
