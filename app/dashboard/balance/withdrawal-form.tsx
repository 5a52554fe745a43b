'use client';

import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { formatMoney } from '@/components/ui/money';
import { ConfirmStep } from '@/components/ui/confirm-step';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { useToast } from '@/components/ui/toast';
import { ApiError } from '@/lib/api/errors';
import { fieldErrors } from '@/lib/dashboard/form-errors';
import { Decimal } from '@/lib/money';
import { networkLabel } from '@/lib/checkout/network-label';
import { parseWithdrawalAmount, quotedWithdrawalFee } from '@/lib/withdrawals/amounts';
import { CreateWithdrawalBody } from '@/lib/withdrawals/schemas';
import { addressProblem, addressRuleOf } from '@/lib/chain/address-rules';
import { railId, type Asset, type ChainKey } from '@/lib/config/rails';
import { createWithdrawalAction, maxWithdrawalAction, validateAddressAction } from './actions';

interface Max {
  maxAmount: string;
  balance: string;
  feePercent: string;
  estimatedFee: string;
  minWithdrawal: string;
  /** The network's flat fee, added to the percentage fee. */
  networkFee: string;
}

/** Amount checks are lib/withdrawals' own parser, so the form refuses exactly what the API refuses. */
function amountProblem(raw: string): string | null {
  try {
    parseWithdrawalAmount(raw);
    return null;
  } catch (err) {
    return err instanceof ApiError ? (err.details?.[0]?.message ?? err.message) : 'is not a valid amount';
  }
}

export interface Rail {
  chain: ChainKey;
  token: Asset;
}

export function WithdrawalForm({
  initialMax,
  rails,
  totpEnabled = false,
}: {
  initialMax: Max;
  /** The enabled rails, the default rail first (`initialMax` is its): each pays from its token's balance on its network. */
  rails: [Rail, ...Rail[]];
  totpEnabled?: boolean;
}) {
  const [totpCode, setTotpCode] = useState('');
  const [railKey, setRailKey] = useState<string>(railId(rails[0]));
  const rail = rails.find((r) => railId(r) === railKey) ?? rails[0];
  const unit = rail.token;
  // The address form of the rail's network (0x… or T…), its placeholder and its format check.
  const addressRule = addressRuleOf(rail.chain);
  const router = useRouter();
  const toast = useToast();
  const [max, setMax] = useState(initialMax);
  const [amount, setAmount] = useState('');
  const [address, setAddress] = useState('');
  const { errors, setErrors, formError, setFormError, busy, run } = useFormSubmit();
  const [addressOk, setAddressOk] = useState<string | null>(null);
  // The checked request, waiting for the confirm click (issue 35: nothing moves on the first click).
  const [review, setReview] = useState<{ amount: string; destinationAddress: string; chain?: string; token?: string } | null>(null);

  const amountErr = amount ? amountProblem(amount) : null;
  // Max is charged balance − amount (the whole balance goes), any other amount amount × rate: as the API does.
  const fee = amount && !amountErr ? quotedWithdrawalFee(new Decimal(amount), max.balance, max.feePercent, max.networkFee) : null;
  // The network's own minimum (5.00 on Ethereum by default), as the API refuses it.
  const belowMin =
    amount && !amountErr && new Decimal(amount).lt(max.minWithdrawal)
      ? `the minimum withdrawal on ${rail.chain} is ${max.minWithdrawal} ${unit}`
      : null;
  const total = fee ? new Decimal(amount).plus(fee) : null;
  const over = total ? total.gt(max.balance) : false;

  async function checkAddress(value: string, on: Rail = rail) {
    setAddressOk(null);
    setErrors(({ destinationAddress: _, ...rest }) => rest);
    if (!value) return;
    const problem = addressProblem(on.chain, value);
    // A sentence of its own under the field, as the refund form's: "The address is an EVM (0x…) address; TRON takes …".
    if (problem) return setErrors((e) => ({ ...e, destinationAddress: `The address ${problem}.` }));
    const res = await validateAddressAction(value, on.chain);
    if (res.ok) {
      setErrors(({ destinationAddress: _, ...rest }) => rest);
      setAddressOk(res.data.address);
    } else setErrors((e) => ({ ...e, destinationAddress: res.error.details?.[0]?.message ?? res.error.message }));
  }

  async function pickRail(key: string) {
    setRailKey(key);
    setAmount('');
    // An address typed for the other network's family is refused at once, not when the form is sent.
    const next = rails.find((r) => railId(r) === key);
    if (next && address.trim()) void checkAddress(address.trim(), next);
    const res = await maxWithdrawalAction(key.split(':')[1], key.split(':')[0]);
    if (res.ok) setMax(res.data);
  }

  async function fillMax() {
    const res = await maxWithdrawalAction(rail.token, rail.chain);
    if (!res.ok) return toast(res.error.message, 'error');
    setMax(res.data);
    setAmount(res.data.maxAmount);
  }

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    // The rail is always named (the chain/token extension), the default one too.
    const input = { amount: amount.trim(), destinationAddress: address.trim(), chain: rail.chain, token: rail.token };
    const parsed = CreateWithdrawalBody.safeParse(input);
    const problems: Record<string, string> = parsed.success ? {} : fieldErrors(parsed.error.issues);
    const a = amountProblem(input.amount);
    if (a) problems.amount = a;
    const addressErr = addressProblem(rail.chain, input.destinationAddress);
    if (addressErr) problems.destinationAddress = `The address ${addressErr}.`;
    if (Object.keys(problems).length) return setErrors(problems);
    setFormError(null);
    setReview(input);
  }

  async function confirm() {
    if (!review) return;
    const res = await run(() => createWithdrawalAction(review, { totpCode }));
    if (!res.ok) return;
    setReview(null);
    setTotpCode('');
    toast(`Withdrawal of ${formatMoney(res.data.amount)} ${unit} on ${networkLabel(rail.chain)} created`);
    setAmount('');
    setAddress('');
    setAddressOk(null);
    const m = await maxWithdrawalAction(rail.token, rail.chain);
    if (m.ok) setMax(m.data);
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-2">
      <FormError message={formError} />
      {rails.length > 1 ? (
        <Field id="wd-rail" label="Pay from" error={errors.chain ?? errors.token}>
          <select id="wd-rail" value={railKey} onChange={(e) => pickRail(e.target.value)} className={inputClass}>
            {rails.map((r) => (
              <option key={railId(r)} value={railId(r)}>
                {r.token} balance, sent on {networkLabel(r.chain)}
              </option>
            ))}
          </select>
        </Field>
      ) : null}
      <Field
        id="wd-amount"
        label={`Amount (${unit})`}
        error={errors.amount ?? amountErr ?? belowMin ?? undefined}
        hint={`Up to ${formatMoney(max.maxAmount)} ${unit} after the fee; at least ${formatMoney(max.minWithdrawal)} ${unit} on ${networkLabel(rail.chain)}.`}
      >
        <div className="flex gap-2">
          <input
            id="wd-amount"
            name="amount"
            inputMode="decimal"
            placeholder="0.00"
            value={amount}
            onChange={(e) => {
              setAmount(e.target.value.trim());
              setErrors(({ amount: _, ...r }) => r);
            }}
            className={inputClass}
            aria-invalid={!!(errors.amount ?? amountErr)}
            aria-describedby="wd-amount-msg"
          />
          <Button variant="secondary" onClick={fillMax}>
            Max
          </Button>
        </div>
      </Field>
      <Field
        id="wd-address"
        label={`Destination address on ${networkLabel(rail.chain)}`}
        error={errors.destinationAddress}
        hint={addressOk ? `✓ Valid address ${addressOk}` : `A ${addressRule.name} address, checked when you leave the field.`}
      >
        <input
          id="wd-address"
          name="destinationAddress"
          placeholder={addressRule.placeholder}
          value={address}
          onChange={(e) => {
            setAddress(e.target.value);
            setAddressOk(null);
          }}
          onBlur={(e) => checkAddress(e.target.value.trim())}
          className={`${inputClass} font-mono`}
          aria-invalid={!!errors.destinationAddress}
          aria-describedby="wd-address-msg"
          spellCheck={false}
          autoComplete="off"
        />
      </Field>
      <dl className="grid grid-cols-3 gap-4 rounded-md bg-slate-50 p-3 text-sm" aria-live="polite">
        <div>
          <dt className="text-slate-500">Amount</dt>
          <dd className="tabular-nums" data-testid="wd-amount-view">
            {amount && !amountErr ? formatMoney(amount) : '—'}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">
            Fee ({new Decimal(max.feePercent).times(100).toFixed()}%
            {new Decimal(max.networkFee).gt(0) ? ` + ${formatMoney(max.networkFee)} network` : ''})
          </dt>
          <dd className="tabular-nums" data-testid="wd-fee">
            {fee ? formatMoney(fee.toFixed()) : '—'}
          </dd>
        </div>
        <div>
          <dt className="text-slate-500">Total debited</dt>
          <dd className={`tabular-nums font-medium ${over ? 'text-red-600' : ''}`} data-testid="wd-total">
            {total ? formatMoney(total.toFixed()) : '—'}
          </dd>
        </div>
      </dl>
      <p className="min-h-5 text-xs text-red-600">{over ? `Exceeds the available balance of ${formatMoney(max.balance)} ${unit}.` : ''}</p>
      <div className="flex items-end justify-end gap-2">
        <Button type="submit" disabled={busy || over}>
          Withdraw
        </Button>
      </div>
      <ConfirmStep
        open={review !== null}
        title="Confirm withdrawal"
        confirmLabel="Confirm withdrawal"
        busy={busy}
        error={formError}
        stepUp={{ id: 'wd-totp', enabled: totpEnabled, value: totpCode, onChange: setTotpCode }}
        onCancel={() => setReview(null)}
        onConfirm={confirm}
        rows={[
          { label: 'Amount', value: review ? `${formatMoney(review.amount)} ${unit}` : '—' },
          { label: 'Fee', value: fee ? `${formatMoney(fee.toFixed())} ${unit}` : '—' },
          { label: 'Total debited', value: total ? `${formatMoney(total.toFixed())} ${unit}` : '—' },
          { label: 'Asset', value: unit },
          { label: 'Network', value: networkLabel(rail.chain) },
          { label: 'Destination', value: review?.destinationAddress ?? '', mono: true },
        ]}
        note="Sent from the gateway's hot wallet; a transaction on chain cannot be undone. Check the address and network."
      />
    </form>
  );
}
