'use client';

import { useActionState } from 'react';
import type { ClaimPageView } from '@/lib/refunds/claims/claim-page';
import { redeemRefundClaimAction, type ClaimFormState } from './actions';

/** The payer's address for a merchant's refund claim link; posts without JavaScript too (a server action form). */
export function ClaimForm({ token, claim }: { token: string; claim: ClaimPageView }) {
  const [state, action, pending] = useActionState<ClaimFormState, FormData>(redeemRefundClaimAction, {});
  if (state.done) {
    return (
      <p role="status" data-testid="claim-done" className="rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-emerald-800">
        Thank you. Your refund of{' '}
        <strong className="tabular-nums">
          {state.done.amount} {claim.token}
        </strong>{' '}
        to <span className="break-all font-mono">{state.done.address}</span> has been requested: {claim.tenantName} sends it once they approve.
      </p>
    );
  }
  return (
    <form action={action} className="space-y-2" aria-label="Refund address">
      <input type="hidden" name="token" value={token} />
      <label className="block text-xs font-medium text-slate-500" htmlFor="claim-address">
        Your {claim.rail} address
      </label>
      <input
        id="claim-address"
        name="address"
        required
        autoComplete="off"
        spellCheck={false}
        placeholder="0x…"
        pattern="0x[0-9a-fA-F]{40}"
        className="w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm"
      />
      {state.error ? (
        <p role="alert" className="text-sm text-rose-700">
          {state.error}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded-md bg-slate-900 px-4 py-2.5 text-sm font-medium text-white disabled:opacity-60"
      >
        {pending ? 'Sending…' : 'Request refund'}
      </button>
      <p className="text-xs text-slate-500">
        Use a wallet you control on {claim.rail.split(' on ')[1]}: an exchange deposit address may not credit a refund. This link works once.
      </p>
    </form>
  );
}
