import Link from 'next/link';
import { Card, EmptyState, PageHeader, tableClass, tdClass, thClass } from '@/components/ui/card';
import { inputClass } from '@/components/ui/field';
import { requireSupport } from '@/lib/console/context';
import { countHeldPayments } from '@/lib/console/list-held-payments';
import { searchConsole } from '@/lib/console/search';
import { CHAIN_GONE_TEXT } from '@/lib/invoices/chain-gone-text';
import { GasWallets } from './gas-wallets';
import { NetworkCosts } from './network-costs';
import { ScrollTable } from '@/components/ui/scroll-hint';

export const metadata = { title: 'Search · Support console' };

export default async function ConsoleSearchPage({ searchParams }: { searchParams: Promise<Record<string, string | undefined>> }) {
  const ctx = await requireSupport();
  const q = ((await searchParams).q ?? '').slice(0, 200);
  const [hits, held] = await Promise.all([q ? searchConsole(ctx.db, q) : [], countHeldPayments(ctx.db)]);
  return (
    <>
      <PageHeader
        title="Search"
        description="Across every tenant: tenant name or id, invoice id, externalId, deposit address, tx hash, withdrawal id, event id, delivery id, order id."
      />
      {/* Search is what support comes here for: the form and its results first, above the wallet and cost cards. */}
      <form role="search" className="mb-6 flex max-w-2xl gap-2">
        <label htmlFor="q" className="sr-only">
          Search
        </label>
        <input id="q" name="q" defaultValue={q} placeholder="inv_…, 0x…, tenant name…" className={inputClass} autoFocus />
        <button type="submit" className="h-9 rounded-md bg-indigo-600 px-4 text-sm font-medium text-white hover:bg-indigo-500">
          Search
        </button>
      </form>
      {q && (
        <Card className="mb-6">
          {hits.length === 0 ? (
            <EmptyState title={`Nothing matches “${q}”`}>Ids must be complete; names match in part.</EmptyState>
          ) : (
            <ScrollTable className="-m-5">
              <table className={tableClass}>
                <thead>
                  <tr>
                    <th className={thClass}>Kind</th>
                    <th className={thClass}>Id</th>
                    <th className={thClass}>Tenant</th>
                    <th className={thClass}>Mode</th>
                    <th className={thClass}>Summary</th>
                  </tr>
                </thead>
                <tbody>
                  {hits.map((h, i) => (
                    <tr key={`${h.kind}-${h.id}-${i}`} data-hit-kind={h.kind}>
                      <td className={tdClass}>{h.kind}</td>
                      <td className={`${tdClass} font-mono text-xs`}>{h.id}</td>
                      <td className={`${tdClass} font-mono text-xs`}>
                        {h.tenantId ? (
                          <Link className="text-indigo-600 hover:underline" href={`/console/tenants/${h.tenantId}`}>
                            {h.tenantId}
                          </Link>
                        ) : (
                          '—'
                        )}
                      </td>
                      <td className={tdClass}>{h.mode ?? '—'}</td>
                      <td className={`${tdClass} whitespace-normal`}>
                        {h.summary}
                        {h.notWatched && (
                          <div className="mt-1 text-xs text-amber-800" data-testid="chain-gone">
                            {CHAIN_GONE_TEXT}
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
      )}
      {/* Held money waits for the merchant, not support; shown so a pile-up (a payer's wallet defaulting to the wrong network) is noticed. */}
      <Card title="Needs attention" className="mb-6">
        <Link href="/console/held-payments" className="text-sm text-indigo-600 hover:underline" data-testid="held-payments-link">
          Held payments: {held.total} (live {held.live}, test {held.test})
        </Link>
        {held.reorged > 0 && (
          <Link
            href="/console/held-payments?status=reorged"
            className="mt-1 block text-sm font-medium text-red-700 hover:underline"
            data-testid="reorged-held"
          >
            Resolved payments a deep reorg dropped: {held.reorged} (check the sweep and the hot wallet)
          </Link>
        )}
      </Card>
      <GasWallets />
      <NetworkCosts db={ctx.db} />
    </>
  );
}
