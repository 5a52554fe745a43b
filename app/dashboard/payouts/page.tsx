import Link from 'next/link';
import { StatusBadge } from '@/components/ui/badge';
import { Card, EmptyState, PageHeader, tableClass, tdClass, thClass } from '@/components/ui/card';
import { Time } from '@/components/ui/time';
import { getNetworks, tokensOf } from '@/lib/chain/network';
import { requireContext } from '@/lib/dashboard/context';
import { can } from '@/lib/dashboard/permissions';
import { listPayouts } from '@/lib/payouts/list-payouts';
import { PayoutUpload } from './payout-upload';

export const metadata = { title: 'Payouts' };

export default async function PayoutsPage() {
  const ctx = await requireContext();
  const history = await listPayouts(ctx.db, ctx.owner, { page: 1, limit: 20 });
  const rails = getNetworks(ctx.mode).flatMap((n) => tokensOf(n).map((t) => ({ chain: n.chain, token: t.asset })));
  return (
    <>
      <PageHeader title="Payouts" description="Pay many recipients at once from your balance: upload a CSV, check every row, confirm once." />
      <Card title="New payout">
        {can(ctx.user.role, 'withdrawals:create') ? (
          <PayoutUpload rails={rails} totpEnabled={ctx.user.totpEnabled} />
        ) : (
          <p className="text-sm text-slate-500">Only the account owner can make payouts.</p>
        )}
      </Card>
      <Card title="Recent payouts" className="mt-4">
        <div className="-m-5 overflow-x-auto">
          {history.data.length === 0 ? (
            <EmptyState title="No payouts yet" />
          ) : (
            <table className={tableClass}>
              <thead>
                <tr>
                  {['Payout', 'Items', 'Status', 'Created'].map((h) => (
                    <th key={h} className={thClass}>
                      {h}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {history.data.map((p) => (
                  <tr key={p.id}>
                    <td className={`${tdClass} font-mono text-xs`}>
                      <Link className="text-indigo-600 hover:underline" href={`/dashboard/payouts/${p.id}`}>
                        {p.id}
                      </Link>
                    </td>
                    <td className={tdClass}>{p.itemCount}</td>
                    <td className={tdClass}>
                      <StatusBadge status={p.status} />
                    </td>
                    <td className={tdClass}>
                      <Time iso={p.createdAt} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      </Card>
    </>
  );
}
