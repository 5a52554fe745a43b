import { StatusBadge } from '@/components/ui/badge';
import { Card, EmptyState, PageHeader, tableClass, tdClass, thClass } from '@/components/ui/card';
import { Money } from '@/components/ui/money';
import { Pagination } from '@/components/ui/pagination';
import { Time } from '@/components/ui/time';
import { getNetwork, getNetworks, tokensOf } from '@/lib/chain/network';
import { DEFAULT_RAIL, type ChainKey } from '@/lib/config/rails';
import { requireContext } from '@/lib/dashboard/context';
import { explorerTxUrl } from '@/lib/dashboard/explorer';
import { can } from '@/lib/dashboard/permissions';
import { Decimal } from '@/lib/money';
import { getBalanceSummary } from '@/lib/withdrawals/get-balance-summary';
import { getMaxWithdrawal } from '@/lib/withdrawals/get-max-withdrawal';
import { listWithdrawals } from '@/lib/withdrawals/list-withdrawals';
import { ExchangeAttention } from './exchange-attention';
import { ExchangeWithdrawal } from './exchange-withdrawal';
import { StatementDownload } from './statement-download';
import { WithdrawalForm } from './withdrawal-form';

export const metadata = { title: 'Balance' };

export default async function BalancePage({ searchParams }: { searchParams: Promise<{ page?: string }> }) {
  const ctx = await requireContext();
  const page = Math.max(1, Math.min(100_000, Number.parseInt((await searchParams).page ?? '1', 10) || 1));
  const [balance, max, history] = await Promise.all([
    getBalanceSummary(ctx.db, ctx.owner, { currency: DEFAULT_RAIL.token }),
    getMaxWithdrawal(ctx.db, ctx.owner, { currency: DEFAULT_RAIL.token }),
    listWithdrawals(ctx.db, ctx.owner, { page, limit: 20 }),
  ]);
  // A withdrawal links to its own network's explorer; other assets' balances (USDC) show under USDT's.
  const networks = getNetworks(ctx.mode);
  const chainIdOf = (chain: ChainKey) => networks.find((n) => n.chain === chain)?.chainId ?? getNetwork(ctx.mode, chain).chainId;
  const otherAssets = [...new Set(networks.flatMap((n) => tokensOf(n).map((t) => t.asset)))].filter((a) => a !== 'USDT');
  const others = await Promise.all(otherAssets.map((currency) => getBalanceSummary(ctx.db, ctx.owner, { currency })));
  const canWithdraw = can(ctx.user.role, 'withdrawals:create');
  // Every enabled rail can be withdrawn on, BSC USDT (the default) first.
  const isDefault = (r: { chain: ChainKey; token: string }) => r.chain === DEFAULT_RAIL.chain && r.token === DEFAULT_RAIL.token;
  const enabled = networks.flatMap((n) => tokensOf(n).map((t) => ({ chain: n.chain, token: t.asset })));
  const [firstRail, ...moreRails] = [...enabled.filter(isDefault), ...enabled.filter((r) => !isDefault(r))];
  return (
    <>
      <PageHeader
        title="Balance & withdrawals"
        description="Settled invoice funds, net of fees, per asset, ready to withdraw on any network you accept."
      />
      <ExchangeAttention ctx={ctx} />
      <div className="grid gap-4 lg:grid-cols-3">
        <Card title="Balance">
          <dl className="space-y-4">
            <div>
              <dt className="text-sm text-slate-500">Available</dt>
              <dd className="mt-1 text-3xl font-semibold text-slate-900" data-testid="balance-available">
                <Money value={balance.available} currency={DEFAULT_RAIL.token} />
              </dd>
            </div>
            <div>
              <dt className="text-sm text-slate-500">Held by open withdrawals</dt>
              <dd className="mt-1 text-lg text-slate-700" data-testid="balance-pending">
                <Money value={balance.pending} currency={DEFAULT_RAIL.token} />
              </dd>
            </div>
            {others.map((b) => (
              <div key={b.currency}>
                <dt className="text-sm text-slate-500">{b.currency} available</dt>
                <dd className="mt-1 text-lg text-slate-700" data-testid={`balance-available-${b.currency}`}>
                  <Money value={b.available} currency={b.currency} />
                </dd>
              </div>
            ))}
            <div className="text-xs text-slate-500">
              Withdrawal fee: {new Decimal(max.feePercent).times(100).toFixed()}% of the amount, charged on top · minimum {max.minWithdrawal} USDT
            </div>
          </dl>
        </Card>
        <Card title={moreRails.length > 0 ? 'Withdraw' : 'Withdraw USDT'} className="lg:col-span-2">
          {canWithdraw && firstRail ? (
            <WithdrawalForm initialMax={max} rails={[firstRail, ...moreRails]} totpEnabled={ctx.user.totpEnabled} />
          ) : canWithdraw ? (
            <p className="text-sm text-slate-500">No network is enabled to withdraw on.</p>
          ) : (
            <p className="text-sm text-slate-500">Only the account owner can withdraw funds.</p>
          )}
        </Card>
      </div>
      <StatementDownload assets={['USDT', ...otherAssets]} />
      <ExchangeWithdrawal ctx={ctx} />
      <Card title="Withdrawal history" className="mt-4">
        <div className="-m-5">
          {history.data.length === 0 ? (
            <EmptyState title="No withdrawals yet" />
          ) : (
            <div className="overflow-x-auto">
              <table className={tableClass}>
                <thead>
                  <tr>
                    {['Amount', 'Fee', 'Status', 'Destination', 'Transaction', 'Created'].map((h) => (
                      <th key={h} className={thClass}>
                        {h}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {history.data.map((w) => {
                    const url = w.txHash ? explorerTxUrl(chainIdOf(w.chain), w.txHash) : null;
                    return (
                      <tr key={w.id} data-withdrawal-id={w.id}>
                        <td className={`${tdClass} font-medium text-slate-900`}>
                          <Money value={w.amount} currency={w.token} />
                        </td>
                        <td className={tdClass}>
                          <Money value={w.feeAmount} currency={w.token} />
                        </td>
                        <td className={tdClass}>
                          <StatusBadge status={w.status} />
                        </td>
                        <td className={`${tdClass} font-mono text-xs`} title={w.destinationAddress}>
                          {w.destinationAddress.slice(0, 8)}…{w.destinationAddress.slice(-6)}
                        </td>
                        <td className={`${tdClass} font-mono text-xs`}>
                          {!w.txHash ? (
                            '—'
                          ) : url ? (
                            <a className="text-indigo-600 hover:underline" href={url} target="_blank" rel="noreferrer">
                              {w.txHash.slice(0, 12)}…
                            </a>
                          ) : (
                            <span title={w.txHash}>{w.txHash.slice(0, 12)}…</span>
                          )}
                        </td>
                        <td className={tdClass}>
                          <Time iso={w.createdAt} />
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}
          <Pagination
            basePath="/dashboard/balance"
            params={{}}
            page={history.meta.page}
            lastPage={history.meta.lastPage}
            total={history.meta.total}
          />
        </div>
      </Card>
    </>
  );
}
