'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { ConfirmStep } from '@/components/ui/confirm-step';
import { useFormSubmit, withFirstDetail } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { networkLabel } from '@/lib/checkout/network-label';
import { addressRuleOf } from '@/lib/chain/address-rules';
import type { Asset, ChainKey } from '@/lib/config/rails';
import { formatMoney } from '@/components/ui/money';
import { Decimal } from '@/lib/money';
import type { RefundFacts, RefundPrice } from '@/lib/refunds/price-refund';
import { createRefundAction } from './refund-actions';
import { confirmRows, initialAmount, quoteLine, quotedAmount, reviewOrRefuse, tooSmallNotice } from './refund-quote';

/** Refund to the payer: the amount starts at the API's default (overpayment, or all of an unpaid invoice) when the server would accept it. */
export function RefundForm({
  invoiceId,
  suggested,
  refundable,
  totpEnabled,
  facts,
  chain,
  token,
}: {
  invoiceId: string;
  suggested: string;
  refundable: string;
  totpEnabled: boolean;
  /** The figures the server prices refunds with (lib/refunds/refund-pricing.ts, refundFacts). */
  facts: RefundFacts;
  /** The invoice's rail: the refund goes out in its token on its network, to an address of that network's form. */
  chain: ChainKey;
  token: Asset;
}) {
  const addressRule = addressRuleOf(chain);
  const router = useRouter();
  const toast = useToast();
  const [totpCode, setTotpCode] = useState('');
  const { formError: error, setFormError: setError, busy, run } = useFormSubmit({ message: withFirstDetail });
  const notice = tooSmallNotice(facts, suggested);
  const [amount, setAmount] = useState(initialAmount(facts, suggested));
  const [review, setReview] = useState<{ destinationAddress: string; amount: string; price: RefundPrice } | null>(null);
  async function confirm() {
    if (!review) return;
    const res = await run(() =>
      createRefundAction(invoiceId, { destinationAddress: review.destinationAddress, amount: review.amount }, { totpCode }),
    );
    if (!res.ok) return;
    setReview(null);
    setTotpCode('');
    toast(`Refund of ${res.data.amount} ${token} created`);
    router.refresh();
  }
  // The quote follows the typed amount (the API's default when empty). Nothing overpaid suggests 0.00: no quote
  // then, as under an empty field (it printed "For 0.00: the minimum withdrawal is 0.01 USDT" in red).
  const quote = quoteLine(facts, quotedAmount(facts, suggested, amount));
  return (
    <form
      noValidate
      aria-label="Refund"
      className="mt-3 space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        const address = String(new FormData(e.currentTarget).get('address') ?? '');
        // What the server would refuse is refused here, before the review, in its words (it checks again).
        const v = reviewOrRefuse(facts, { suggested, typed: amount, chain, address });
        if ('error' in v) return setError(v.error);
        setError(null);
        setReview(v.review);
      }}
    >
      <h3 className="text-sm font-medium text-slate-900">Refund to an address</h3>
      {notice ? (
        <p className="rounded-md bg-amber-50 p-2 text-sm text-amber-900" data-testid="refund-too-small">
          {notice}
        </p>
      ) : null}
      <FormError message={error ?? undefined} />
      <Field id="rf-address" label={`Payer's address on ${networkLabel(chain)}`}>
        <input id="rf-address" name="address" required placeholder={addressRule.placeholder} className={`${inputClass} font-mono`} />
      </Field>
      <Field
        id="rf-amount"
        label={`Amount (${token})`}
        hint={`At most ${refundable}; at least ${formatMoney(new Decimal(facts.minRefund).toFixed(2))} on ${facts.network}. No withdrawal fee; the invoice fee on an overpayment or late payment comes back with it.`}
      >
        <input
          id="rf-amount"
          name="amount"
          inputMode="decimal"
          value={amount}
          onChange={(e) => {
            setAmount(e.target.value);
            setError(null);
          }}
          className={inputClass}
        />
      </Field>
      {quote ? (
        <p className={`text-xs ${quote.ok ? 'text-slate-600' : 'text-red-700'}`} data-testid="refund-quote">
          {quote.text}
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
        rows={review ? confirmRows(review.price, token, chain, review.destinationAddress) : []}
        note="Sent from the gateway's hot wallet; a transaction on chain cannot be undone."
      />
    </form>
  );
}
