'use client';

import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { FormError } from '@/components/ui/field';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { setWrongNetworkPolicyAction } from './actions';

/** What a payment in the invoice's token on another network does: counted (default) or held for the owner. */
export function WrongNetworkPolicyForm({ policy, canEdit }: { policy: 'credit' | 'hold'; canEdit: boolean }) {
  const router = useRouter();
  const toast = useToast();
  const { formError: error, busy, run } = useFormSubmit();
  return (
    <form
      noValidate
      aria-label="Wrong-network policy"
      onSubmit={async (e) => {
        e.preventDefault();
        const wrongNetworkPolicy = new FormData(e.currentTarget).get('wrongNetworkPolicy') === 'hold' ? 'hold' : 'credit';
        const res = await run(() => setWrongNetworkPolicyAction({ wrongNetworkPolicy }));
        if (!res.ok) return;
        toast(wrongNetworkPolicy === 'credit' ? 'Payments on another network will count' : 'Payments on another network will be held');
        router.refresh();
      }}
    >
      <FormError message={error} />
      <fieldset className="text-sm text-slate-700" disabled={!canEdit}>
        <legend className="font-medium">A payment in the right token on another network</legend>
        <label className="mt-1 flex items-start gap-2">
          <input type="radio" name="wrongNetworkPolicy" value="credit" defaultChecked={policy === 'credit'} className="mt-1" />
          <span>
            Count it towards the invoice
            <span className="block text-xs text-slate-500">Swept and credited on the network it came on, like a correct payment.</span>
          </span>
        </label>
        <label className="mt-1 flex items-start gap-2">
          <input type="radio" name="wrongNetworkPolicy" value="hold" defaultChecked={policy === 'hold'} className="mt-1" />
          <span>
            Hold it for me
            <span className="block text-xs text-slate-500">
              Shown on the invoice as a held payment; the money stays on the deposit address. Another token (USDC to a USDT invoice) is always held.
            </span>
          </span>
        </label>
      </fieldset>
      {canEdit && (
        <Button type="submit" variant="secondary" className="mt-2" disabled={busy}>
          Save
        </Button>
      )}
    </form>
  );
}
