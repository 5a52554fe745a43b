'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { addressProblem } from '@/lib/chain/address-rules';
import { resolveEmergencyAction } from './emergency-actions';

/** Quick checks before the server's own (checksum, zero address): a BSC address for USDTBSC, else no spaces. */
function refundAddressProblem(fromCcy: string, address: string): string | null {
  if (!address) return 'is required for a refund';
  if (fromCcy === 'USDTBSC') return addressProblem('BSC', address);
  return address.length > 128 || /\s/.test(address) ? `must be a ${fromCcy} address: up to 128 characters, no spaces` : null;
}

/** EMERGENCY order, no choice yet: continue at the market rate, or refund to an address (owner only). */
export function EmergencyDecisionForm({ orderId, fromCcy }: { orderId: string; fromCcy: string }) {
  const router = useRouter();
  const toast = useToast();
  const [choice, setChoice] = useState<'EXCHANGE' | 'REFUND'>('EXCHANGE');
  const [address, setAddress] = useState('');
  const [tag, setTag] = useState('');
  const { errors, setErrors, formError, busy, submit } = useFormSubmit();
  const id = (name: string) => `em-${orderId}-${name}`;

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const input: Record<string, string> = { orderId, choice };
    if (choice === 'REFUND') {
      const problem = refundAddressProblem(fromCcy, address.trim());
      if (problem) return setErrors({ refundAddress: problem });
      input.refundAddress = address.trim();
      if (tag.trim()) input.refundTag = tag.trim();
    }
    const res = await submit(null, () => resolveEmergencyAction(input));
    if (!res) return;
    toast(res.data.choice === 'REFUND' ? 'Refund requested at the exchange' : 'The exchange continues the order at the market rate');
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} noValidate className="mt-3 space-y-2 rounded-md bg-slate-50 p-3" data-testid="emergency-form">
      <FormError message={formError} />
      <fieldset className="space-y-1.5 text-sm">
        <legend className="mb-1 font-medium text-slate-700">Your decision</legend>
        <label className="flex items-center gap-1.5">
          <input type="radio" name={id('choice')} value="EXCHANGE" checked={choice === 'EXCHANGE'} onChange={() => setChoice('EXCHANGE')} /> Continue
          the exchange at the market rate
        </label>
        <label className="flex items-center gap-1.5">
          <input type="radio" name={id('choice')} value="REFUND" checked={choice === 'REFUND'} onChange={() => setChoice('REFUND')} /> Refund to an
          address
        </label>
      </fieldset>
      {choice === 'REFUND' && (
        <div className="grid gap-x-4 sm:grid-cols-2">
          <Field
            id={id('address')}
            label={`Refund address (${fromCcy})`}
            error={errors.refundAddress}
            hint="The deposit, minus the network fee, is sent here."
          >
            <input
              id={id('address')}
              name="refundAddress"
              value={address}
              onChange={(e) => {
                setAddress(e.target.value);
                setErrors(({ refundAddress: _, ...r }) => r);
              }}
              placeholder={fromCcy === 'USDTBSC' ? '0x…' : ''}
              className={`${inputClass} font-mono`}
              spellCheck={false}
              autoComplete="off"
              aria-invalid={!!errors.refundAddress}
              aria-describedby={`${id('address')}-msg`}
            />
          </Field>
          {fromCcy !== 'USDTBSC' && (
            <Field id={id('tag')} label="Memo / tag (if the address needs one)" error={errors.refundTag}>
              <input
                id={id('tag')}
                name="refundTag"
                value={tag}
                onChange={(e) => setTag(e.target.value)}
                className={inputClass}
                aria-invalid={!!errors.refundTag}
                aria-describedby={`${id('tag')}-msg`}
              />
            </Field>
          )}
        </div>
      )}
      <div className="flex justify-end">
        <Button type="submit" size="sm" disabled={busy}>
          {busy ? 'Sending…' : choice === 'REFUND' ? 'Request the refund' : 'Continue the exchange'}
        </Button>
      </div>
    </form>
  );
}
