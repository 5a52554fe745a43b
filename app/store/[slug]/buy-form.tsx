'use client';

import { useActionState } from 'react';
import { buyProduct, type BuyState } from './actions';

export function BuyForm({ slug, mode, productId, productName }: { slug: string; mode: 'live' | 'test'; productId: string; productName: string }) {
  const [state, action, pending] = useActionState<BuyState, FormData>(buyProduct, {});
  const id = productId.slice(-8);
  return (
    <form action={action} className="mt-4 space-y-3" aria-label={`Buy ${productName}`}>
      <input type="hidden" name="slug" value={slug} />
      <input type="hidden" name="mode" value={mode} />
      <input type="hidden" name="productId" value={productId} />
      <div className="flex gap-3">
        <label className="w-20 text-xs font-medium text-slate-600" htmlFor={`qty-${id}`}>
          Quantity
          <input
            id={`qty-${id}`}
            name="quantity"
            type="number"
            min={1}
            max={100}
            defaultValue={1}
            required
            className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm"
          />
        </label>
        <label className="flex-1 text-xs font-medium text-slate-600" htmlFor={`email-${id}`}>
          Email
          <input
            id={`email-${id}`}
            name="email"
            type="email"
            required
            autoComplete="email"
            placeholder="you@example.com"
            className="mt-1 w-full rounded-md border border-slate-300 px-2 py-1.5 text-sm"
          />
        </label>
      </div>
      {state.error ? (
        <p role="alert" className="text-sm text-rose-700">
          {state.error}
        </p>
      ) : null}
      <button
        type="submit"
        disabled={pending}
        className="w-full rounded-md bg-slate-900 px-4 py-2 text-sm font-medium text-white disabled:opacity-60"
      >
        {pending ? 'Creating your order…' : 'Buy with USDT'}
      </button>
    </form>
  );
}
