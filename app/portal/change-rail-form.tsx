'use client';

import { useActionState } from 'react';
import { CHAIN_SPECS, type ChainKey } from '@/lib/config/rails';
import { changeRailAction, type RailChangeState } from './rail-actions';

/**
 * The customer picks the network they pay on, among those the merchant accepts for the plan's token. It applies from
 * the next period: the current period's invoice stays on its network (no proration). Works as a plain form too.
 */
export function ChangeRailForm({
  subscriptionId,
  token,
  chain,
  networks,
}: {
  subscriptionId: string;
  token: string;
  chain: ChainKey;
  networks: ChainKey[];
}) {
  const [state, action, pending] = useActionState<RailChangeState, FormData>(changeRailAction, null);
  return (
    <form action={action} className="flex flex-wrap items-end gap-2" data-testid="portal-rail-form">
      <input type="hidden" name="subscriptionId" value={subscriptionId} />
      <label className="text-xs text-slate-600">
        Network for {token}
        {/* Keyed by the saved network: after a change the picker shows it (a form action resets the form to its defaults). */}
        <select
          key={chain}
          name="chain"
          defaultValue={chain}
          className="mt-1 block rounded-md border border-slate-300 bg-white px-2 py-1.5 text-xs text-slate-900"
        >
          {networks.map((c) => (
            <option key={c} value={c}>
              {CHAIN_SPECS[c].name} ({CHAIN_SPECS[c].tokenStandard})
            </option>
          ))}
        </select>
      </label>
      <button
        type="submit"
        disabled={pending}
        className="rounded-md border border-slate-300 px-3 py-1.5 text-xs font-medium text-slate-900 hover:bg-slate-50"
        data-testid="portal-rail-submit"
      >
        {pending ? 'Saving…' : 'Change network'}
      </button>
      <p className="w-full text-xs text-slate-500">From the next period; the current period&apos;s invoice stays on its network.</p>
      {state && (
        <p
          className={`w-full text-xs ${state.ok ? 'text-slate-900' : 'text-red-700'}`}
          role={state.ok ? 'status' : 'alert'}
          data-testid="portal-rail-result"
        >
          {state.message}
        </p>
      )}
    </form>
  );
}
