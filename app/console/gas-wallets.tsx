import { Card } from '@/components/ui/card';
import { getGasWallets } from '@/lib/console/get-gas-wallets';

/** Gas wallet BNB per network: pays every sweep's top-up; "unavailable" when the read failed (never shown as 0). */
export async function GasWallets() {
  const wallets = await getGasWallets();
  return (
    <Card title="Gas wallets" className="mb-6">
      <ul className="divide-y divide-slate-100 text-sm" data-testid="gas-wallets">
        {wallets.map((w) => (
          <li key={w.mode} className="flex flex-wrap items-center justify-between gap-2 py-2" data-gas-mode={w.mode} data-gas-state={w.state}>
            <span>
              <span className="font-medium">{w.mode}</span> <span className="text-slate-500">chain {w.chainId}</span>
              {w.state !== 'not_configured' && <span className="ml-2 font-mono text-xs text-slate-500">{w.address}</span>}
            </span>
            {w.state === 'not_configured' && <span className="text-slate-500">not configured</span>}
            {w.state === 'unavailable' && (
              <span className="font-medium text-amber-700" role="status">
                unavailable (balance read failed)
              </span>
            )}
            {(w.state === 'ok' || w.state === 'low') && (
              <span className={w.state === 'low' ? 'font-medium text-red-700' : 'text-slate-900'} role={w.state === 'low' ? 'alert' : undefined}>
                {w.balance} BNB{w.state === 'low' && ` — low, below ${w.lowAt} BNB: sweeps will stop`}
              </span>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}
