'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { zodFieldErrors } from '@/lib/dashboard/form-errors';
import { CreatePaymentLinkBody, LINK_CURRENCIES } from '@/lib/payment-links/schemas';
import { createPaymentLinkAction, disablePaymentLinkAction } from './actions';

/** The API's zod schema checks the form; the server's refusal is shown field by field. */
function LinkForm({ onDone, rails }: { onDone: () => void; rails: string[] }) {
  const router = useRouter();
  const toast = useToast();
  const { errors, formError, busy, submit } = useFormSubmit();
  const [kind, setKind] = useState<'fixed' | 'custom'>('fixed');
  return (
    <form
      noValidate
      className="space-y-2"
      onSubmit={async (e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const text = (k: string) => String(f.get(k) ?? '').trim() || undefined;
        const limit = text('maxPayments');
        const expires = text('expiresAt');
        const lifetime = text('invoiceExpiresInMinutes');
        const [chain, token] = (text('rail') ?? 'BSC:USDT').split(':');
        const input = {
          name: text('name') ?? '',
          description: text('description'),
          chain,
          token,
          // "Token" is the rail's own token: a USDC link is priced in USDC, a USDT one in USDT or a fiat currency.
          currency: text('currency') === 'TOKEN' ? token : text('currency'),
          invoiceExpiresInMinutes: lifetime === undefined ? undefined : Number(lifetime),
          ...(kind === 'fixed' ? { amount: text('amount') ?? '' } : { minAmount: text('minAmount') ?? '', maxAmount: text('maxAmount') ?? '' }),
          maxPayments: limit === undefined ? undefined : Number(limit),
          // datetime-local is the browser's local time.
          expiresAt: expires ? new Date(expires).toISOString() : undefined,
        };
        const parsed = CreatePaymentLinkBody.safeParse(input);
        const res = await submit(parsed.success ? null : zodFieldErrors(parsed.error), () => createPaymentLinkAction(input));
        if (!res) return;
        toast(`Payment link “${res.data.name}” created`);
        onDone();
        router.refresh();
      }}
    >
      <FormError message={formError} />
      <Field id="pl-name" label="Name" error={errors.name} hint="Shown to payers, e.g. “Workshop ticket”.">
        <input id="pl-name" name="name" required className={inputClass} />
      </Field>
      <Field id="pl-description" label="Description" error={errors.description}>
        <input id="pl-description" name="description" className={inputClass} />
      </Field>
      <fieldset className="flex gap-4 text-sm text-slate-700">
        <legend className="sr-only">Amount type</legend>
        <label className="flex items-center gap-1.5">
          <input type="radio" name="kind" checked={kind === 'fixed'} onChange={() => setKind('fixed')} /> Fixed amount
        </label>
        <label className="flex items-center gap-1.5">
          <input type="radio" name="kind" checked={kind === 'custom'} onChange={() => setKind('custom')} /> Payer chooses
        </label>
      </fieldset>
      {kind === 'fixed' ? (
        <Field id="pl-amount" label="Amount" error={errors.amount}>
          <input id="pl-amount" name="amount" inputMode="decimal" className={inputClass} />
        </Field>
      ) : (
        <div className="grid grid-cols-2 gap-3">
          <Field id="pl-min" label="Minimum" error={errors.minAmount ?? errors.amount}>
            <input id="pl-min" name="minAmount" inputMode="decimal" className={inputClass} />
          </Field>
          <Field id="pl-max" label="Maximum" error={errors.maxAmount}>
            <input id="pl-max" name="maxAmount" inputMode="decimal" className={inputClass} />
          </Field>
        </div>
      )}
      <div className="grid grid-cols-2 gap-3">
        <Field id="pl-rail" label="Paid in" error={errors.chain ?? errors.token} hint="One of the rails this account accepts.">
          <select id="pl-rail" name="rail" defaultValue="BSC:USDT" className={inputClass}>
            {rails.map((r) => (
              <option key={r} value={r}>
                {r.replace(':', ' ')}
              </option>
            ))}
          </select>
        </Field>
        <Field id="pl-currency" label="Price currency" error={errors.currency} hint="A fiat price (USDT links) locks a rate per invoice.">
          <select id="pl-currency" name="currency" defaultValue="TOKEN" className={inputClass}>
            <option value="TOKEN">the token</option>
            {LINK_CURRENCIES.filter((c) => c !== 'USDT' && c !== 'USDC').map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        </Field>
      </div>
      <div className="grid grid-cols-2 gap-3">
        <Field id="pl-limit" label="Quantity limit" error={errors.maxPayments} hint="Optional.">
          <input id="pl-limit" name="maxPayments" type="number" min={1} className={inputClass} />
        </Field>
        <Field id="pl-expires" label="Expires" error={errors.expiresAt} hint="Optional.">
          <input id="pl-expires" name="expiresAt" type="datetime-local" className={inputClass} />
        </Field>
      </div>
      <Field
        id="pl-lifetime"
        label="Invoice lifetime (minutes)"
        error={errors.invoiceExpiresInMinutes}
        hint="How long each payer's invoice stays payable, and so holds a place under a quantity limit."
      >
        <input id="pl-lifetime" name="invoiceExpiresInMinutes" type="number" min={5} max={10080} defaultValue={30} className={inputClass} />
      </Field>
      <div className="flex justify-end pt-2">
        <Button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create link'}
        </Button>
      </div>
    </form>
  );
}

export function LinkFormButton({ rails }: { rails: string[] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>New payment link</Button>
      <Dialog open={open} onClose={() => setOpen(false)} title="New payment link">
        <LinkForm onDone={() => setOpen(false)} rails={rails} />
      </Dialog>
    </>
  );
}

export function DisableLinkButton({ id, name }: { id: string; name: string }) {
  const router = useRouter();
  const toast = useToast();
  const { busy, run } = useFormSubmit();
  return (
    <Button
      size="sm"
      variant="ghost"
      disabled={busy}
      aria-label={`Disable ${name}`}
      onClick={async () => {
        const res = await run(() => disablePaymentLinkAction(id));
        if (!res.ok) return toast(res.error.message, 'error');
        toast('Payment link disabled');
        router.refresh();
      }}
    >
      Disable
    </Button>
  );
}
