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
import { CreateSubscriptionBody } from '@/lib/subscriptions/schemas';
import { createSubscriptionAction } from './actions';

export interface PlanChoice {
  id: string;
  name: string;
  amount: string | null;
  price: { currency: string; amount: string } | null;
  chain: string;
  token: string;
}

/** Customer, plan and the network they pay on: the plan's token, on any network this account accepts for it. */
function SubscriptionForm({ onDone, plans, rails }: { onDone: () => void; plans: PlanChoice[]; rails: string[] }) {
  const router = useRouter();
  const toast = useToast();
  const { errors, formError, busy, submit } = useFormSubmit();
  const [planId, setPlanId] = useState(plans[0]?.id ?? '');
  const plan = plans.find((p) => p.id === planId);
  const networks = plan ? rails.filter((r) => r.endsWith(`:${plan.token}`)) : [];
  return (
    <form
      noValidate
      className="space-y-2"
      onSubmit={async (e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const input = {
          customerEmail: String(f.get('customerEmail') ?? '').trim(),
          planId,
          chain: String(f.get('rail') ?? '').split(':')[0] || undefined,
          cancelAtPeriodEnd: f.get('cancelAtPeriodEnd') === 'on',
        };
        const parsed = CreateSubscriptionBody.safeParse(input);
        const res = await submit(parsed.success ? null : zodFieldErrors(parsed.error), () => createSubscriptionAction(input));
        if (!res) return;
        toast(`${res.data.customerEmail} subscribed`);
        onDone();
        router.refresh();
      }}
    >
      <FormError message={formError} />
      <Field id="sub-email" label="Customer e-mail" error={errors.customerEmail} hint="Each period's invoice is e-mailed to them.">
        <input id="sub-email" name="customerEmail" type="email" autoComplete="off" className={inputClass} />
      </Field>
      <Field id="sub-plan" label="Plan" error={errors.planId}>
        <select id="sub-plan" name="planId" value={planId} onChange={(e) => setPlanId(e.target.value)} className={inputClass}>
          {plans.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}: {p.price ? `${p.price.amount} ${p.price.currency} in ${p.token}` : `${p.amount} ${p.token}`}
            </option>
          ))}
        </select>
      </Field>
      {/* Keyed by plan: a new plan's default network is selected afresh. */}
      <Field id="sub-rail" label="Network" error={errors.chain} hint="The plan's token, on a network this account accepts.">
        <select key={planId} id="sub-rail" name="rail" defaultValue={plan ? `${plan.chain}:${plan.token}` : undefined} className={inputClass}>
          {networks.map((r) => (
            <option key={r} value={r}>
              {railOptionLabel(r)}
            </option>
          ))}
        </select>
      </Field>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" name="cancelAtPeriodEnd" /> End after the first period
      </label>
      <div className="flex justify-end pt-2">
        <Button type="submit" disabled={busy}>
          {busy ? 'Subscribing…' : 'Subscribe customer'}
        </Button>
      </div>
    </form>
  );
}

export function SubscriptionFormButton({ plans, rails }: { plans: PlanChoice[]; rails: string[] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)} disabled={plans.length === 0} title={plans.length === 0 ? 'Create a plan first' : undefined}>
        New subscription
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} title="New subscription">
        <SubscriptionForm onDone={() => setOpen(false)} plans={plans} rails={rails} />
      </Dialog>
    </>
  );
}
