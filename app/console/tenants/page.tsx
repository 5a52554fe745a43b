import Link from 'next/link';
import { StatusBadge } from '@/components/ui/badge';
import { Card, EmptyState, PageHeader, tableClass, tdClass, thClass } from '@/components/ui/card';
import { inputClass } from '@/components/ui/field';
import { Time } from '@/components/ui/time';
import { requireSupport } from '@/lib/console/context';
import { listConsoleTenants } from '@/lib/console/list-console-tenants';
import { Decimal } from '@/lib/money';
import { ScrollTable } from '@/components/ui/scroll-hint';

export const metadata = { title: 'Tenants · Support console' };
const pct = (rate: string) => `${new Decimal(rate).times(100).toFixed()}%`;

export default async function TenantsPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const ctx = await requireSupport();
  const q = (await searchParams).q?.slice(0, 200);
  const rows = await listConsoleTenants(ctx.db, q);
  return (
    <>
      <PageHeader title="Tenants" />
      <form className="mb-4 flex max-w-md gap-2" role="search">
        <label htmlFor="tq" className="sr-only">
          Filter tenants
        </label>
        <input id="tq" name="q" defaultValue={q ?? ''} placeholder="Name, slug or id" className={inputClass} />
        <button type="submit" className="h-9 rounded-md border border-slate-300 bg-white px-4 text-sm font-medium">
          Filter
        </button>
      </form>
      <Card>
        {rows.length === 0 ? (
          <EmptyState title="No tenants" />
        ) : (
          <ScrollTable className="-m-5">
            <table className={tableClass}>
              <thead>
                <tr>
                  <th className={thClass}>Name</th>
                  <th className={thClass}>Id</th>
                  <th className={thClass}>Status</th>
                  <th className={thClass}>Invoice fee</th>
                  <th className={thClass}>Withdrawal fee</th>
                  <th className={thClass}>Created</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((t) => (
                  <tr key={t.id}>
                    <td className={tdClass}>
                      <Link href={`/console/tenants/${t.id}`} className="font-medium text-indigo-600 hover:underline">
                        {t.name}
                      </Link>
                    </td>
                    <td className={`${tdClass} font-mono text-xs`}>{t.id}</td>
                    <td className={tdClass}>
                      <StatusBadge status={t.status.toUpperCase()} />
                    </td>
                    <td className={tdClass}>{pct(t.invoiceFeeRate)}</td>
                    <td className={tdClass}>{pct(t.withdrawalFeeRate)}</td>
                    <td className={`${tdClass} text-xs`}>
                      <Time iso={t.createdAt.toISOString()} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollTable>
        )}
      </Card>
    </>
  );
}
