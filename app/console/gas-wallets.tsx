import { Card } from '@/components/ui/card';
import { formatIn } from '@/components/ui/money';
import { CHAIN_SPECS } from '@/lib/config/rails';
import { getGasWallets, type GasWallet, type HotWallet, type NetworkWallets } from '@/lib/console/get-gas-wallets';

/**
 * Gas and hot wallets per network of each mode: the gas wallet pays every
 * sweep's top-up, the hot wallet pays withdrawals. A network whose read failed
 * is "unreadable" (never shown as 0); the other networks still show.
 */
export async function GasWallets() {
  const wallets = await getGasWallets();
  return (
    <Card title="Gas and hot wallets" className="mb-6">
      <ul className="divide-y divide-slate-100 text-sm" data-testid="gas-wallets">
        {wallets.map((w) => (
          <li
            key={`${w.mode}:${w.chain}`}
            className="flex flex-wrap items-start justify-between gap-2 py-2"
            data-gas-mode={w.mode}
            data-gas-chain={w.chain}
            data-gas-state={stateOf(w)}
          >
            <span>
              <span className="font-medium">{w.mode}</span> <span className="font-medium">{CHAIN_SPECS[w.chain].name}</span>{' '}
              <span className="text-slate-500">chain {w.chainId}</span>
            </span>
            {w.state === 'not_configured' && <span className="text-slate-500">not configured</span>}
            {w.state === 'unreadable' && (
              <span className="flex flex-col items-end gap-0.5">
                <span className="font-medium text-amber-700" role="status" title={w.error}>
                  unreadable (balance read failed)
                </span>
                {w.gasAddress && <WalletAddress label="gas" address={w.gasAddress} />}
                {w.hotAddress && <WalletAddress label="hot" address={w.hotAddress} />}
              </span>
            )}
            {w.state === 'ok' && (
              <span className="flex flex-col items-end gap-0.5">
                <GasLine wallet={w.gas} coin={w.nativeCoin} lowAt={w.lowAt} />
                <HotLine wallet={w.hot} coin={w.nativeCoin} />
              </span>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** ok, low (gas wallet below its threshold), unreadable or not_configured. */
function stateOf(w: NetworkWallets): string {
  return w.state === 'ok' && w.gas?.low ? 'low' : w.state;
}

/** An amount as the chain read it (18 decimals for a coin), cut to its unit's display precision. */
const amount = (value: string, unit: string) => `${formatIn(value, unit)} ${unit}`;

function WalletAddress({ label, address }: { label: string; address: string }) {
  // An address is one 34-42 character word: it breaks anywhere rather than run past the card at 360 px.
  return (
    <span className="text-slate-500">
      {label} <span className="font-mono text-xs break-all">{address}</span>
    </span>
  );
}

function GasLine({ wallet, coin, lowAt }: { wallet: GasWallet | null; coin: string; lowAt: string }) {
  if (!wallet) return <span className="text-slate-500">gas wallet not configured</span>;
  return (
    <span data-wallet="gas">
      <WalletAddress label="gas" address={wallet.address} />{' '}
      <span className={wallet.low ? 'font-medium text-red-700' : 'text-slate-900'} role={wallet.low ? 'alert' : undefined}>
        {amount(wallet.balance, coin)}
        {wallet.energy &&
          ` · ${wallet.energy.stakedTrx} staked for energy, ${wallet.energy.delegatableTrx} delegatable: ${wallet.energy.sweeps} sweeps`}
        {wallet.low &&
          (wallet.energy
            ? ` — low, energy for fewer than ${wallet.energy.lowAtSweeps} sweeps: stake more ${coin}`
            : ` — low, below ${lowAt} ${coin}: sweeps will stop`)}
      </span>
    </span>
  );
}

function HotLine({ wallet, coin }: { wallet: HotWallet | null; coin: string }) {
  if (!wallet) return <span className="text-slate-500">hot wallet not configured</span>;
  return (
    <span data-wallet="hot">
      <WalletAddress label="hot" address={wallet.address} />{' '}
      <span className="text-slate-900">{[amount(wallet.balance, coin), ...wallet.tokens.map((t) => amount(t.amount, t.asset))].join(' · ')}</span>
    </span>
  );
}
