'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { zodFieldErrors } from '@/lib/dashboard/form-errors';
import { CreateInvoiceBody, FIAT_CURRENCIES } from '@/lib/invoices/schemas';
import { railLabel } from '@/lib/checkout/network-label';
import { splitRailId, type RailId } from '@/lib/config/rails';
import { createInvoiceAction } from './actions';

/** `rails`: the tenant's accepted rails (`CHAIN:TOKEN`, BSC:USDT first, lib/tenants/tenant-rails.ts), as Settings lists them. */
export function CreateInvoiceButton({ rails = ['BSC:USDT'] }: { rails?: RailId[] }) {
  const router = useRouter();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [rail, setRail] = useState<RailId>('BSC:USDT');
  const { chain, token } = splitRailId(rail);
  const { errors, formError, busy, submit } = useFormSubmit();

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const input: Record<string, unknown> = { amount: String(f.get('amount') ?? '').trim(), expiresInMinutes: Number(f.get('expiresInMinutes')) };
    // BSC USDT is the API's default; another rail is sent as chain and token.
    if (rail !== 'BSC:USDT') Object.assign(input, { chain, token });
    const currency = String(f.get('currency') ?? token);
    if (currency !== token) input.currency = currency;
    for (const k of ['externalId', 'description'] as const) {
      const v = String(f.get(k) ?? '').trim();
      if (v) input[k] = v;
    }
    const parsed = CreateInvoiceBody.safeParse(input);
    const res = await submit(parsed.success ? null : zodFieldErrors(parsed.error), () => createInvoiceAction(input));
    if (!res) return;
    setOpen(false);
    toast('Invoice created');
    router.push(`/dashboard/invoices/${res.data.id}`);
  }

  return (
    <>
      <Button onClick={() => setOpen(true)}>Create invoice</Button>
      <Dialog open={open} onClose={() => setOpen(false)} title="Create invoice">
        <form onSubmit={onSubmit} noValidate className="space-y-2">
          <FormError message={formError} />
          <Field
            id="inv-rail"
            label="Paid in"
            error={errors.chain ?? errors.token}
            hint="The network and token the payer sends: one of the rails this account accepts (Settings)."
          >
            <select
              id="inv-rail"
              name="rail"
              value={rail}
              onChange={(e) => setRail(rails.find((r) => r === e.target.value) ?? 'BSC:USDT')}
              className={inputClass}
            >
              {rails.map((r) => (
                <option key={r} value={r}>
                  {railLabel(splitRailId(r).chain, splitRailId(r).token)}
                </option>
              ))}
            </select>
          </Field>
          <Field
            id="inv-amount"
            label="Amount"
            error={errors.amount ?? errors.currency}
            hint={`Up to 2 decimals.${token === 'USDT' ? " In a fiat currency, the USDT due is fixed at today's rate until the invoice expires." : ''}`}
          >
            <div className="flex gap-2">
              <input id="inv-amount" name="amount" inputMode="decimal" placeholder="100.00" className={inputClass} aria-invalid={!!errors.amount} />
              <select key={token} name="currency" aria-label="Currency" defaultValue={token} className={inputClass.replace('w-full', 'w-28')}>
                {/* A fiat price is for USDT invoices only (the API's rule). */}
                {[token, ...(token === 'USDT' ? FIAT_CURRENCIES : [])].map((c) => (
                  <option key={c} value={c}>
                    {c}
                  </option>
                ))}
              </select>
            </div>
          </Field>
          <Field id="inv-external" label="External id (optional)" error={errors.externalId} hint="Your order number, for search and reconciliation.">
            <input id="inv-external" name="externalId" className={inputClass} />
          </Field>
          <Field id="inv-description" label="Description (optional)" error={errors.description}>
            <input id="inv-description" name="description" className={inputClass} />
          </Field>
          <Field id="inv-expiry" label="Expires after (minutes)" error={errors.expiresInMinutes}>
            <input id="inv-expiry" name="expiresInMinutes" type="number" min={5} max={10080} defaultValue={30} className={inputClass} />
          </Field>
          <div className="flex justify-end pt-2">
            <Button type="submit" disabled={busy}>
              {busy ? 'Creating…' : 'Create invoice'}
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
