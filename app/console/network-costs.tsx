import { Card, tableClass, tdClass, thClass } from '@/components/ui/card';
import { formatIn } from '@/components/ui/money';
import { CHAIN_SPECS } from '@/lib/config/rails';
import type { Db } from '@/lib/db';
import { COST_WINDOWS, getNetworkCosts, type CostWindow } from '@/lib/console/get-network-costs';
import { Decimal } from '@/lib/money';
import { ScrollTable } from '@/components/ui/scroll-hint';

/** Gas spent against fees earned per network, 24 h and 30 days: red where the gas cost more than the fees (at the reference price). */
export async function NetworkCosts({ db }: { db: Db }) {
  const rows = await getNetworkCosts(db);
  return (
    <Card title="Gas spent against fees earned" className="mb-6">
      <ScrollTable className="-m-5">
        <table className={tableClass} data-testid="network-costs">
          <thead>
            <tr>
              <th className={thClass}>Network</th>
              {COST_WINDOWS.map((w) => (
                <th key={w.key} className={thClass}>
                  {w.key}: gas spent · fees earned
                </th>
              ))}
              <th className={thClass}>Invoice fees held in hot wallet</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.mode}:${r.chain}`} data-costs-mode={r.mode} data-costs-chain={r.chain}>
                <td className={tdClass}>
                  <span className="font-medium">{r.mode}</span> {CHAIN_SPECS[r.chain].name}
                </td>
                {COST_WINDOWS.map((w) => (
                  <td key={w.key} className={tdClass} data-costs-window={w.key}>
                    <WindowCell w={r.windows[w.key]} coin={r.nativeCoin} />
                  </td>
                ))}
                <td className={`${tdClass} tabular-nums`}>{usd(r.heldInvoiceFees)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollTable>
      <p className="mt-7 text-xs text-slate-500">
        Gas: every mined sweep, gas top-up and withdrawal of ours on the network; in USD at the operator&apos;s reference price of the gas coin
        (&lt;MODE&gt;_&lt;CHAIN&gt;_GAS_COIN_USD). Fees: invoice fees (less those returned with refunds) and withdrawal fees, percentage and network.
      </p>
    </Card>
  );
}

/** Fees are stablecoin amounts (USDT, USDC): to the cent, like every token amount on the screens. */
const usd = (value: string) => formatIn(value, 'USDT');

function WindowCell({ w, coin }: { w: CostWindow; coin: string }) {
  const loss = w.gasUsd !== null && new Decimal(w.gasUsd).gt(w.feesEarned);
  return (
    <span className={`tabular-nums ${loss ? 'font-medium text-red-700' : ''}`} data-loss={loss ? 'true' : 'false'}>
      {formatIn(w.gas, coin)} {coin}
      {w.gasUsd !== null ? ` (≈ ${usd(w.gasUsd)} USD)` : ''} · {usd(w.feesEarned)} USD
      <span className="block text-xs text-slate-500">
        {w.transactions} tx · invoice {usd(w.invoiceFees)} · withdrawal {usd(w.withdrawalFees)}
        {new Decimal(w.pullFees).gt(0) ? ` · pulls ${usd(w.pullFees)}` : ''}
      </span>
    </span>
  );
}
