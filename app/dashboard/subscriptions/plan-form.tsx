'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { zodFieldErrors } from '@/lib/dashboard/form-errors';
import { railOptionLabel } from '@/lib/subscriptions/rail-option-label';
import { FIAT_CURRENCIES } from '@/lib/config/rails';
import { planBodyOfForm } from '@/lib/subscriptions/plan-form-input';
import { CreatePlanBody } from '@/lib/subscriptions/schemas';
import { createPlanAction } from './actions';

const INTERVALS = ['day', 'week', 'month', 'year'] as const;

/** The API's zod body checks the form; the server's refusal (a rail turned off, say) is shown field by field. */
function PlanForm({ onDone, rails }: { onDone: () => void; rails: string[] }) {
  const router = useRouter();
  const toast = useToast();
  const { errors, formError, busy, submit } = useFormSubmit();
  return (
    <form
      noValidate
      className="space-y-2"
      onSubmit={async (e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const text = (k: string) => String(f.get(k) ?? '').trim();
        // An empty number field is left to the API's default; anything else goes as typed (the schema says what is wrong).
        const num = (k: string) => (text(k) === '' ? undefined : Number(text(k)));
        const [chain, token] = text('rail').split(':');
        const input = {
          name: text('name'),
          priceIn: text('priceIn'),
          amount: text('amount'),
          chain,
          token,
          interval: text('interval'),
          intervalCount: num('intervalCount'),
          trialDays: num('trialDays'),
          graceDays: num('graceDays'),
        };
        const parsed = CreatePlanBody.safeParse(planBodyOfForm(input));
        const res = await submit(parsed.success ? null : zodFieldErrors(parsed.error), () => createPlanAction(input));
        if (!res) return;
        toast(`Plan “${res.data.name}” created`);
        onDone();
        router.refresh();
      }}
    >
      <FormError message={formError} />
      <Field id="plan-name" label="Name" error={errors.name} hint="Shown to subscribers on each invoice, e.g. “Pro monthly”.">
        <input id="plan-name" name="name" className={inputClass} />
      </Field>
      <div className="grid grid-cols-2 gap-3">
        <Field id="plan-amount" label="Amount" error={errors.amount ?? errors['price.amount']} hint="Each period, at most 2 decimals.">
          <input id="plan-amount" name="amount" inputMode="decimal" className={inputClass} />
        </Field>
        <Field
          id="plan-price-in"
          label="Price in"
          error={errors.price ?? errors['price.currency']}
          hint="A fiat price (USDT plans) is converted at the rate of the day each period is billed."
        >
          <select id="plan-price-in" name="priceIn" defaultValue="token" className={inputClass}>
            <option value="token">The token (amount in USDT or USDC)</option>
            {FIAT_CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {c} (fiat price)
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className="grid grid-cols-2 gap-3">
        <Field id="plan-rail" label="Paid in" error={errors.chain ?? errors.token} hint="A rail this account accepts.">
          <select id="plan-rail" name="rail" defaultValue={rails[0]} className={inputClass}>
            {rails.map((r) => (
              <option key={r} value={r}>
                {railOptionLabel(r)}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className="grid grid-cols-2 gap-3">
        <Field id="plan-count" label="Every" error={errors.intervalCount} hint="1 to 365.">
          <input id="plan-count" name="intervalCount" type="number" min={1} max={365} defaultValue={1} className={inputClass} />
        </Field>
        <Field id="plan-interval" label="Interval" error={errors.interval}>
          <select id="plan-interval" name="interval" defaultValue="month" className={inputClass}>
            {INTERVALS.map((i) => (
              <option key={i} value={i}>
                {i}(s)
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div className="grid grid-cols-2 gap-3">
        <Field id="plan-trial" label="Trial days" error={errors.trialDays} hint="Free days before the first invoice.">
          <input id="plan-trial" name="trialDays" type="number" min={0} max={730} defaultValue={0} className={inputClass} />
        </Field>
        <Field id="plan-grace" label="Grace days" error={errors.graceDays} hint="Unpaid this long after due: canceled.">
          <input id="plan-grace" name="graceDays" type="number" min={0} max={365} defaultValue={0} className={inputClass} />
        </Field>
      </div>
      <div className="flex justify-end pt-2">
        <Button type="submit" disabled={busy}>
          {busy ? 'Creating…' : 'Create plan'}
        </Button>
      </div>
    </form>
  );
}

export function PlanFormButton({ rails }: { rails: string[] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        New plan
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title="New plan">
        <PlanForm onDone={() => setOpen(false)} rails={rails} />
      </Dialog>
    </>
  );
}
