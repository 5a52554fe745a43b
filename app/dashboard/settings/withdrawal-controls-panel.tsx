'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { inputClass } from '@/components/ui/field';
import { Money } from '@/components/ui/money';
import { Time } from '@/components/ui/time';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { Decimal } from '@/lib/money';
import type { ActionResult } from '@/lib/dashboard/action-result';
import type { listWithdrawalControls } from '@/lib/withdrawal-controls/list-withdrawal-controls';
import {
  addAllowlistAddressAction,
  decideWithdrawalAction,
  removeAllowlistAddressAction,
  updateWithdrawalControlsAction,
} from './withdrawal-controls-actions';

type Data = Awaited<ReturnType<typeof listWithdrawalControls>>;
const plain = (v: string | null) => (v === null ? '' : v.replace(/\.?0+$/, ''));
const label = 'mb-1 block text-xs font-medium text-slate-600';

/** Settings > Withdrawal controls: one TOTP field (when 2FA is on) confirms every change made here. */
export function WithdrawalControlsPanel({
  data,
  dailyUsed = '0',
  totpEnabled,
  canManage,
}: {
  data: Data;
  /** USD withdrawn in the last 24 h, every withdrawal counted, the dashboard's included (dailyLimitUsed: the limit's own sum). */
  dailyUsed?: string;
  totpEnabled: boolean;
  canManage: boolean;
}) {
  const router = useRouter();
  const toast = useToast();
  const [code, setCode] = useState('');
  const { formError: error, busy, run: send } = useFormSubmit();
  const c = data.controls;
  const remaining = c.dailyLimit === null ? null : Decimal.max(0, new Decimal(c.dailyLimit).minus(dailyUsed)).toFixed(2);

  async function run<T>(action: () => Promise<ActionResult<T>>, ok: string) {
    const r = await send(action);
    if (!r.ok) return false;
    toast(ok);
    router.refresh();
    return true;
  }
  const step = () => (totpEnabled ? { totpCode: code } : {});

  return (
    <div className="space-y-6 text-sm" data-testid="withdrawal-controls">
      <p className="text-slate-600">
        These bind withdrawals made with API keys (every asset, and exchange). Amounts are in USD: USDT and USDC count 1:1 against one limit. What you
        and your team withdraw or refund in this dashboard is never refused or held by them, but it counts toward the 24-hour limit: it leaves that
        much less for API keys. Changes need your session
        {totpEnabled ? ' and a code from your authenticator app' : ''}.
      </p>
      <p className="rounded-md bg-slate-50 p-3 text-slate-700" data-testid="daily-allowance">
        Withdrawn in the last 24 hours (dashboard and API): <Money value={new Decimal(dailyUsed).toFixed(2)} currency="USD" />.{' '}
        {remaining === null ? (
          'No 24-hour limit is set.'
        ) : (
          <>
            <strong>
              <Money value={remaining} currency="USD" />
            </strong>{' '}
            of the 24-hour limit of <Money value={new Decimal(c.dailyLimit!).toFixed(2)} currency="USD" /> remains for API keys.
          </>
        )}
      </p>
      {canManage && totpEnabled && (
        <div className="w-56">
          <label htmlFor="wc-totp" className={label}>
            Authenticator code
          </label>
          <input
            id="wc-totp"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            className={inputClass}
            value={code}
            onChange={(e) => setCode(e.target.value)}
          />
        </div>
      )}
      {error && (
        <p className="text-sm text-red-600" role="alert">
          {error}
        </p>
      )}

      <form
        className="grid gap-4 sm:grid-cols-2"
        onSubmit={async (e) => {
          e.preventDefault();
          const f = new FormData(e.currentTarget);
          await run(
            () =>
              updateWithdrawalControlsAction({
                allowlistEnabled: f.get('allowlistEnabled') === 'on',
                coolingOffHours: String(f.get('coolingOffHours') ?? '24'),
                dailyLimit: String(f.get('dailyLimit') ?? ''),
                approvalThreshold: String(f.get('approvalThreshold') ?? ''),
                ...step(),
              }),
            'Withdrawal controls saved',
          );
        }}
      >
        <label className="flex items-center gap-2 sm:col-span-2">
          <input type="checkbox" name="allowlistEnabled" defaultChecked={c.allowlistEnabled} disabled={!canManage} />
          Only allow withdrawals to the addresses below
        </label>
        <div>
          <label htmlFor="wc-cooling" className={label}>
            Cooling-off for new addresses (hours)
          </label>
          <input
            id="wc-cooling"
            name="coolingOffHours"
            type="number"
            min={0}
            max={720}
            defaultValue={c.coolingOffHours}
            className={inputClass}
            disabled={!canManage}
          />
        </div>
        <div>
          <label htmlFor="wc-limit" className={label}>
            24-hour limit for API keys (USD, all assets, empty = none)
          </label>
          <input
            id="wc-limit"
            name="dailyLimit"
            inputMode="decimal"
            defaultValue={plain(c.dailyLimit)}
            className={inputClass}
            disabled={!canManage}
          />
        </div>
        <div>
          <label htmlFor="wc-threshold" className={label}>
            Approve API withdrawals above (USD, empty = never)
          </label>
          <input
            id="wc-threshold"
            name="approvalThreshold"
            inputMode="decimal"
            defaultValue={plain(c.approvalThreshold)}
            className={inputClass}
            disabled={!canManage}
          />
        </div>
        {canManage && (
          <div className="flex items-end">
            <Button type="submit" variant="secondary" disabled={busy}>
              Save controls
            </Button>
          </div>
        )}
      </form>

      <section>
        <h3 className="mb-2 font-medium text-slate-900">Allowed addresses</h3>
        <ul className="divide-y divide-slate-100" data-testid="allowlist">
          {data.addresses.length === 0 && <li className="py-2 text-slate-500">No addresses yet.</li>}
          {data.addresses.map((a) => (
            <li key={a.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span>
                <span className="font-mono text-xs">{a.address}</span>
                {a.label && <span className="ml-2 text-slate-500">{a.label}</span>}
                <span className={`ml-2 text-xs ${a.active ? 'text-emerald-700' : 'text-amber-700'}`}>
                  {a.active ? (
                    'active'
                  ) : (
                    <>
                      cooling off until <Time iso={a.activeAt} />
                    </>
                  )}
                </span>
              </span>
              {canManage && (
                <Button
                  size="sm"
                  variant="secondary"
                  disabled={busy}
                  onClick={() => run(() => removeAllowlistAddressAction(a.id, step()), 'Address removed')}
                >
                  Remove
                </Button>
              )}
            </li>
          ))}
        </ul>
        {canManage && (
          <form
            className="mt-3 flex flex-wrap items-end gap-2"
            onSubmit={async (e) => {
              e.preventDefault();
              const form = e.currentTarget;
              const f = new FormData(form);
              const ok = await run(
                () => addAllowlistAddressAction({ address: String(f.get('address') ?? ''), label: String(f.get('label') ?? ''), ...step() }),
                'Address added',
              );
              if (ok) form.reset();
            }}
          >
            <div className="min-w-0 flex-[1_1_18rem]">
              <label htmlFor="wc-address" className={label}>
                Address
              </label>
              <input id="wc-address" name="address" className={inputClass} />
            </div>
            <div className="w-full sm:w-48">
              <label htmlFor="wc-label" className={label}>
                Label (optional)
              </label>
              <input id="wc-label" name="label" className={inputClass} />
            </div>
            <Button type="submit" variant="secondary" disabled={busy}>
              Add address
            </Button>
          </form>
        )}
      </section>

      <section>
        <h3 className="mb-2 font-medium text-slate-900">Awaiting your approval</h3>
        <ul className="divide-y divide-slate-100" data-testid="awaiting-approval">
          {data.awaitingApproval.length === 0 && <li className="py-2 text-slate-500">Nothing waits for approval.</li>}
          {data.awaitingApproval.map((w) => (
            <li key={w.id} className="flex flex-wrap items-center justify-between gap-2 py-2" data-testid={`approval-${w.id}`}>
              <span>
                <Money value={w.amount} currency={w.token} /> to <span className="font-mono text-xs">{w.destinationAddress}</span> ·{' '}
                <Time iso={w.createdAt} />
              </span>
              {canManage && (
                <span className="flex gap-2">
                  <Button size="sm" disabled={busy} onClick={() => run(() => decideWithdrawalAction(w.id, 'approve', step()), 'Withdrawal approved')}>
                    Approve
                  </Button>
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={busy}
                    onClick={() => run(() => decideWithdrawalAction(w.id, 'reject', step()), 'Withdrawal rejected; amount and fee refunded')}
                  >
                    Reject
                  </Button>
                </span>
              )}
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}
