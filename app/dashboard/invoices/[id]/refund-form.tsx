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
import { formatMoney } from '@/components/ui/money';
import { ApiError } from '@/lib/api/errors';
import { Decimal } from '@/lib/money';
import { priceRefund, type RefundFacts, type RefundPrice } from '@/lib/refunds/price-refund';
import { createRefundAction } from './refund-actions';

/** A verdict of priceRefund on the typed amount: its price, or the server's refusal in its words. */
export function refundVerdict(facts: RefundFacts, amount: string): { ok: true; price: RefundPrice } | { ok: false; message: string } {
  try {
    return { ok: true, price: priceRefund(facts, amount) };
  } catch (err) {
    return { ok: false, message: err instanceof ApiError ? err.message.replace(/^amount: /, '') : String(err) };
  }
}

/** Who pays the network fee, said plainly (the quote line and the dialog). */
export function feeWords(p: RefundPrice, token: string) {
  const fee = `${formatMoney(p.networkFee.toFixed(2))} ${token}`;
  return p.networkFee.isZero()
    ? 'none'
    : p.networkFeePaidBy === 'payer'
      ? `${fee}, paid by the payer (taken from the refund)`
      : `${fee}, paid by you (from your balance)`;
}

/**
 * The overpayment cannot be sent back on this network (below its minimum refund, or its network fee would take all
 * of it): what the merchant can do instead, with the smallest refund the server accepts when there is one.
 */
function tooSmall(facts: RefundFacts, suggested: string) {
  const v = refundVerdict(facts, suggested);
  if (v.ok || suggested === '0.00') return null;
  const candidates = [facts.minRefund, new Decimal(suggested).plus('0.01').toFixed(2)].map((a) => new Decimal(a).toFixed(2));
  const instead = candidates.find((a) => refundVerdict(facts, a).ok);
  return (
    `The overpayment of ${suggested} ${facts.token} is too small to send back on ${facts.network} (${v.message}). ` +
    (instead
      ? `You can refund at least ${instead} ${facts.token} instead (the part beyond the overpayment comes from the price, and you pay the network fee), `
      : 'You can ') +
    'or keep it and settle with the payer another way: it stays in your balance.'
  );
}

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
  const notice = tooSmall(facts, suggested);
  const [amount, setAmount] = useState(suggested === '0.00' || notice ? '' : suggested);
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
  const typed = amount.trim() || (notice || new Decimal(suggested).isZero() ? '' : suggested);
  const verdict = typed ? refundVerdict(facts, typed) : null;
  const p = verdict?.ok ? verdict.price : null;
  return (
    <form
      noValidate
      aria-label="Refund"
      className="mt-3 space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        const destinationAddress = String(new FormData(e.currentTarget).get('address') ?? '').trim();
        // What the server would refuse is refused here, before the review, in its words (it checks again).
        if (!verdict) return setError(notice ?? 'Enter the amount to refund.');
        if (!verdict.ok) return setError(verdict.message);
        const problem = addressProblem(chain, destinationAddress);
        if (problem) return setError(`The payer's address ${problem}`);
        setError(null);
        setReview({ destinationAddress, amount: verdict.price.amount.toFixed(2), price: verdict.price });
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
      {verdict ? (
        <p className={`text-xs ${p ? 'text-slate-600' : 'text-red-700'}`} data-testid="refund-quote">
          {p
            ? `For ${formatMoney(p.amount.toFixed(2))}: network fee ${feeWords(p, token)}; the payer receives ${formatMoney(p.payerReceives.toFixed(2))}; invoice fee returned ${formatMoney(p.invoiceFeeReturned.toFixed())}; your balance goes down by ${formatMoney(p.balanceDebit.toFixed())}.`
            : `For ${typed}: ${verdict.ok ? '' : verdict.message}.`}
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
        rows={
          review
            ? [
                { label: 'Amount', value: `${formatMoney(review.amount)} ${token}` },
                { label: 'Fee', value: `network fee ${feeWords(review.price, token)}; no withdrawal fee` },
                { label: 'Payer receives', value: `${formatMoney(review.price.payerReceives.toFixed(2))} ${token}` },
                { label: 'Your balance', value: `goes down by ${formatMoney(review.price.balanceDebit.toFixed())} ${token}` },
                { label: 'Asset', value: token },
                { label: 'Network', value: networkLabel(chain) },
                { label: 'Destination', value: review.destinationAddress, mono: true },
              ]
            : []
        }
        note="Sent from the gateway's hot wallet; a transaction on chain cannot be undone."
      />
    </form>
  );
}
