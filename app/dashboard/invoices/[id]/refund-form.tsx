'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { ConfirmStep } from '@/components/ui/confirm-step';
import { useFormSubmit, withFirstDetail } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { networkLabel } from '@/lib/checkout/network-label';
import { addressProblem, addressRuleOf } from '@/lib/chain/address-rules';
import type { Asset, ChainKey } from '@/lib/config/rails';
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
  chain,
  token,
}: {
  invoiceId: string;
  suggested: string;
  refundable: string;
  totpEnabled: boolean;
  quote?: RefundQuote | null;
  /** The invoice's rail: the refund goes out in its token on its network, to an address of that network's form. */
  chain: ChainKey;
  token: Asset;
}) {
  const addressRule = addressRuleOf(chain);
  const router = useRouter();
  const toast = useToast();
  const [totpCode, setTotpCode] = useState('');
  const { formError: error, setFormError: setError, busy, run } = useFormSubmit({ message: withFirstDetail });
  const [review, setReview] = useState<{ destinationAddress: string; amount?: string } | null>(null);
  async function confirm() {
    if (!review) return;
    const res = await run(() => createRefundAction(invoiceId, review, { totpCode }));
    if (!res.ok) return;
    setReview(null);
    setTotpCode('');
    toast(`Refund of ${res.data.amount} ${token} created`);
    router.refresh();
  }
  const shown = review?.amount ?? suggested;
  // The quote is for the suggested amount; another amount states the network fee without who pays it.
  const exact = quote && shown === suggested;
  return (
    <form
      noValidate
      aria-label="Refund"
      className="mt-3 space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        const f = new FormData(e.currentTarget);
        const amount = String(f.get('amount') ?? '').trim();
        const destinationAddress = String(f.get('address') ?? '').trim();
        // An address that cannot be one is refused here, before the review (the server checks it again).
        const problem = addressProblem(chain, destinationAddress);
        if (problem) return setError(`The payer's address ${problem}`);
        setError(null);
        setReview({ destinationAddress, ...(amount ? { amount } : {}) });
      }}
    >
      <h3 className="text-sm font-medium text-slate-900">Refund to an address</h3>
      <FormError message={error ?? undefined} />
      <Field id="rf-address" label={`Payer's address on ${networkLabel(chain)}`}>
        <input id="rf-address" name="address" required placeholder={addressRule.placeholder} className={`${inputClass} font-mono`} />
      </Field>
      <Field
        id="rf-amount"
        label={`Amount (${token})`}
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
      <Button type="submit" disabled={busy}>
        Refund
      </Button>
      <ConfirmStep
        open={review !== null}
        title="Confirm refund"
        confirmLabel="Confirm refund"
        busy={busy}
        error={error}
        stepUp={{ id: 'rf-totp', enabled: totpEnabled, value: totpCode, onChange: setTotpCode }}
        onCancel={() => setReview(null)}
        onConfirm={confirm}
        rows={[
          { label: 'Amount', value: `${shown} ${token}` },
          {
            label: 'Fee',
            value: quote
              ? `network fee ${quote.networkFee} ${token}${exact ? (quote.paidBy === 'payer' ? ', taken from the refund' : ', paid from your balance') : ''}; no withdrawal fee`
              : 'no withdrawal fee',
          },
          ...(exact ? [{ label: 'Payer receives', value: `${quote.payerReceives} ${token}` }] : []),
          { label: 'Asset', value: token },
          { label: 'Network', value: networkLabel(chain) },
          { label: 'Destination', value: review?.destinationAddress ?? '', mono: true },
        ]}
        note="Sent from the gateway's hot wallet; a transaction on chain cannot be undone."
      />
    </form>
  );
}
