'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { StepUpField } from '@/components/ui/step-up-field';
import { useToast } from '@/components/ui/toast';
import { createRefundAction } from './refund-actions';

/** What the suggested refund costs (lib/refunds/refund-pricing.ts, quoteRefund). */
export interface RefundQuote {
  networkFee: string;
  paidBy: 'payer' | 'merchant';
  payerReceives: string;
  invoiceFeeReturned: string;
  balanceDebit: string;
}

/** Refund to the payer: the amount starts at the API's default (overpayment, or all of an unpaid invoice). */
export function RefundForm({
  invoiceId,
  suggested,
  refundable,
  totpEnabled,
  quote = null,
}: {
  invoiceId: string;
  suggested: string;
  refundable: string;
  totpEnabled: boolean;
  quote?: RefundQuote | null;
}) {
  const router = useRouter();
  const toast = useToast();
  const [totpCode, setTotpCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      noValidate
      aria-label="Refund"
      className="mt-3 space-y-2"
      onSubmit={async (e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const amount = String(f.get('amount') ?? '').trim();
        setBusy(true);
        setError(null);
        const res = await createRefundAction(
          invoiceId,
          { destinationAddress: String(f.get('address') ?? '').trim(), ...(amount ? { amount } : {}) },
          { totpCode },
        );
        setBusy(false);
        if (!res.ok) return setError(res.error.details?.[0]?.message ? `${res.error.message} (${res.error.details[0].message})` : res.error.message);
        toast(`Refund of ${res.data.amount} USDT created`);
        router.refresh();
      }}
    >
      <h3 className="text-sm font-medium text-slate-900">Refund to an address</h3>
      <FormError message={error ?? undefined} />
      <Field id="rf-address" label="Payer's address">
        <input id="rf-address" name="address" required placeholder="0x…" className={`${inputClass} font-mono`} />
      </Field>
      <Field
        id="rf-amount"
        label="Amount (USDT)"
        hint={`At most ${refundable}. No withdrawal fee; the invoice fee on an overpayment or late payment comes back with it.`}
      >
        <input id="rf-amount" name="amount" inputMode="decimal" defaultValue={suggested === '0.00' ? '' : suggested} className={inputClass} />
      </Field>
      {quote ? (
        <p className="text-xs text-slate-600" data-testid="refund-quote">
          For {suggested}: network fee {quote.networkFee}
          {quote.paidBy === 'payer' ? ', taken from the refund' : ', paid from your balance'}; the payer receives {quote.payerReceives}; invoice fee
          returned {quote.invoiceFeeReturned}; your balance goes down by {quote.balanceDebit}.
        </p>
      ) : null}
      <StepUpField id="rf-totp" enabled={totpEnabled} value={totpCode} onChange={setTotpCode} />
      <Button type="submit" disabled={busy}>
        {busy ? 'Refunding…' : 'Refund'}
      </Button>
    </form>
  );
}
