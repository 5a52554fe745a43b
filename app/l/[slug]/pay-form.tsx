'use client';

import { useActionState } from 'react';
import { payLink, type PayLinkState } from './actions';

/** Posts without JavaScript too (a server action form); the error comes back in the page. */
export function PayForm({
  slug,
  currency,
  token,
  bounds,
}: {
  slug: string;
  currency: string;
  token: string;
  bounds: { min: string; max: string } | null;
}) {
  const [state, action, pending] = useActionState<PayLinkState, FormData>(payLink, {});
  return (
    <form action={action} className="mt-6 space-y-3" aria-label="Pay">
      <input type="hidden" name="slug" value={slug} />
      {bounds ? (
        <label className="block text-sm font-medium text-slate-700" htmlFor="amount">
          Amount ({currency}, {bounds.min} to {bounds.max})
          <input
            id="amount"
            name="amount"
            inputMode="decimal"
            required
            pattern="[0-9]+(\.[0-9]{1,2})?"
            placeholder={bounds.min}
            className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-base tabular-nums"
          />
        </label>
      ) : null}
      <label className="block text-sm font-medium text-slate-700" htmlFor="customerEmail">
        E-mail for your receipt <span className="font-normal text-slate-500">(optional)</span>
        <input
          id="customerEmail"
          name="customerEmail"
          type="email"
          autoComplete="email"
          maxLength={254}
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-base"
        />
      </label>
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
        {pending ? 'Creating your invoice…' : `Pay with ${token}`}
      </button>
    </form>
  );
}
