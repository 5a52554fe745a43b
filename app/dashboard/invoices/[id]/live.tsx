'use client';

import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { inputClass } from '@/components/ui/field';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { PayInvoiceBody } from '@/lib/invoices/schemas';
import { payTestInvoiceAction } from '../actions';

const FINAL = ['PAID_OUT', 'EXPIRED', 'FAILED'];

/**
 * Polls the status while the invoice or one of its refunds can still change (lib/dashboard/invoice-watch.ts) and
 * re-renders the server page when either does.
 */
export function InvoiceWatcher({
  id,
  status,
  watchKey,
  refundsMoving = false,
}: {
  id: string;
  status: string;
  watchKey: string;
  refundsMoving?: boolean;
}) {
  const router = useRouter();
  const live = !FINAL.includes(status) || refundsMoving;
  const { data } = useQuery({
    queryKey: ['invoice-status', id],
    queryFn: async () => {
      const res = await fetch(`/api/dashboard/invoices/${id}`, { cache: 'no-store' });
      if (!res.ok) throw new Error('status poll failed');
      return (await res.json()) as { status: string; key: string };
    },
    refetchInterval: live ? 2000 : false,
    enabled: live,
  });
  useEffect(() => {
    if (data && data.key !== watchKey) router.refresh();
  }, [data, watchKey, router]);
  return (
    <span className="inline-flex w-28 items-center gap-1.5 text-xs text-slate-500" aria-live="polite">
      {live && (
        <>
          <span className="h-2 w-2 animate-pulse rounded-full bg-emerald-500" aria-hidden="true" /> Live updates
        </>
      )}
    </span>
  );
}

export function SimulatePayment({ id, amount }: { id: string; amount: string }) {
  const toast = useToast();
  const router = useRouter();
  const [value, setValue] = useState(amount);
  const { formError: error, busy, submit } = useFormSubmit();
  return (
    <form
      className="mt-4 border-t border-slate-100 pt-4"
      onSubmit={async (e) => {
        e.preventDefault();
        const parsed = PayInvoiceBody.safeParse({ amount: value });
        const res = await submit(parsed.success ? null : parsed.error.issues[0]!.message, () => payTestInvoiceAction(id, { amount: value }));
        if (!res) return;
        toast(`Test payment sent (${res.data.txHash.slice(0, 10)}…)`);
        router.refresh();
      }}
    >
      <label htmlFor="sim-amount" className="block text-xs font-medium text-amber-800">
        Simulate a customer payment (test USDT)
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id="sim-amount"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          inputMode="decimal"
          className={inputClass}
          aria-invalid={!!error}
        />
        <Button type="submit" variant="secondary" disabled={busy}>
          {busy ? 'Sending…' : 'Pay'}
        </Button>
      </div>
      <p className="min-h-5 text-xs text-red-600" role={error ? 'alert' : undefined}>
        {error ?? ''}
      </p>
    </form>
  );
}
