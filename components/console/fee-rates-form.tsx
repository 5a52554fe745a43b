'use client';

import { useRouter } from 'next/navigation';
import { Button } from '@/components/ui/button';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { setFeeRatesAction } from './actions';
import { FeeRatesBody } from '@/lib/console/schemas';
import { zodFieldErrors } from '@/lib/dashboard/form-errors';

export function FeeRatesForm({
  tenantId,
  invoiceFeeRate,
  withdrawalFeeRate,
}: {
  tenantId: string;
  invoiceFeeRate: string;
  withdrawalFeeRate: string;
}) {
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
        const input = { invoiceFeeRate: String(f.get('invoiceFeeRate') ?? ''), withdrawalFeeRate: String(f.get('withdrawalFeeRate') ?? '') };
        const parsed = FeeRatesBody.safeParse(input);
        const res = await submit(parsed.success ? null : zodFieldErrors(parsed.error), () => setFeeRatesAction(tenantId, input));
        if (!res) return;
        toast('Fee rates changed');
        router.refresh();
      }}
    >
      <FormError message={formError} />
      <Field id="invoiceFeeRate" label="Invoice fee rate" error={errors.invoiceFeeRate} hint="Fraction of each settled invoice: 0.01 = 1%.">
        <input id="invoiceFeeRate" name="invoiceFeeRate" defaultValue={invoiceFeeRate} inputMode="decimal" className={inputClass} />
      </Field>
      <Field id="withdrawalFeeRate" label="Withdrawal fee rate" error={errors.withdrawalFeeRate} hint="Charged on top of each withdrawal: 0.01 = 1%.">
        <input id="withdrawalFeeRate" name="withdrawalFeeRate" defaultValue={withdrawalFeeRate} inputMode="decimal" className={inputClass} />
      </Field>
      <Button type="submit" disabled={busy}>
        {busy ? 'Saving…' : 'Save fee rates'}
      </Button>
    </form>
  );
}
