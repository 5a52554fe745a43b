'use client';

import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { FormError } from '@/components/ui/field';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { setRefundNetworkFeePayerAction } from './refund-fee-actions';

/** Who pays the network fee when money the merchant never kept goes back: the payer (default) or the merchant. */
export function RefundNetworkFeeForm({ payer, canEdit }: { payer: 'payer' | 'merchant'; canEdit: boolean }) {
  const router = useRouter();
  const toast = useToast();
  const { formError: error, busy, run } = useFormSubmit();
  return (
    <form
      noValidate
      aria-label="Refund network fee"
      onSubmit={async (e) => {
        e.preventDefault();
        const refundNetworkFeePayer = new FormData(e.currentTarget).get('refundNetworkFeePayer') === 'merchant' ? 'merchant' : 'payer';
        const res = await run(() => setRefundNetworkFeePayerAction({ refundNetworkFeePayer }));
        if (!res.ok) return;
        toast(refundNetworkFeePayer === 'payer' ? 'Refunds’ network fee comes out of what is sent back' : 'You pay refunds’ network fee');
        router.refresh();
      }}
    >
      <FormError message={error} />
      <fieldset className="text-sm text-slate-700" disabled={!canEdit}>
        <legend className="font-medium">Network fee of a refund of an overpayment, late payment or held payment</legend>
        <p className="text-xs text-slate-500">
          Money you never kept goes back without a withdrawal fee, and the invoice fee charged on it comes back to you with it.
        </p>
        <label className="mt-1 flex items-start gap-2">
          <input type="radio" name="refundNetworkFeePayer" value="payer" defaultChecked={payer === 'payer'} className="mt-1" />
          <span>
            The payer pays it
            <span className="block text-xs text-slate-500">Taken from what is sent back; the payer sees it before confirming.</span>
          </span>
        </label>
        <label className="mt-1 flex items-start gap-2">
          <input type="radio" name="refundNetworkFeePayer" value="merchant" defaultChecked={payer === 'merchant'} className="mt-1" />
          <span>
            I pay it
            <span className="block text-xs text-slate-500">The payer gets the whole amount; your balance pays the network fee on top.</span>
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
