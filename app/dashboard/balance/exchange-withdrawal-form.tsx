'use client';

import { networkLabel } from '@/lib/checkout/network-label';
import { useQuery } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useEffect, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Field, FormError, inputClass } from '@/components/ui/field';
import { useFormSubmit } from '@/components/ui/use-form-submit';
import { formatMoney } from '@/components/ui/money';
import { useToast } from '@/components/ui/toast';
import { fieldErrors } from '@/lib/dashboard/form-errors';
import { ExchangeWithdrawalBody, PairBody } from '@/lib/exchange/schemas';
import { CurrencyPicker, type Currency } from './currency-picker';
import { StepUpField } from '@/components/ui/step-up-field';
import { exchangeQuoteAction, exchangeWithdrawAction } from './exchange-actions';
import type { WithdrawalSource } from '@/lib/exchange/list-withdrawal-sources';

export type { Currency };

type Result = Extract<Awaited<ReturnType<typeof exchangeWithdrawAction>>, { ok: true }>['data'];

const BSC_USDT: WithdrawalSource = { chain: 'BSC', token: 'USDT', code: 'USDTBSC' };

export function ExchangeWithdrawalForm({
  currencies,
  sources = [BSC_USDT],
  totpEnabled = false,
}: {
  currencies: Currency[];
  sources?: WithdrawalSource[];
  totpEnabled?: boolean;
}) {
  const [totpCode, setTotpCode] = useState('');
  const [sourceCode, setSourceCode] = useState(sources[0]?.code ?? BSC_USDT.code);
  const source = sources.find((s) => s.code === sourceCode) ?? sources[0] ?? BSC_USDT;
  const unit = source.token;
  // What can be received: anything the exchange pays out but the rail paid from.
  const targets = currencies.filter((c) => c.code !== source.code);
  const router = useRouter();
  const toast = useToast();
  const [toCcy, setToCcy] = useState('');
  const [amount, setAmount] = useState('');
  const [debounced, setDebounced] = useState('');
  const [type, setType] = useState<'fixed' | 'float'>('fixed');
  const [address, setAddress] = useState('');
  const [tag, setTag] = useState('');
  const { errors, formError, busy, submit } = useFormSubmit();
  const [result, setResult] = useState<Result | null>(null);

  useEffect(() => {
    const t = setTimeout(() => setDebounced(amount.trim()), 400);
    return () => clearTimeout(t);
  }, [amount]);

  const pair = { type, fromCcy: source.code, toCcy, direction: 'from' as const, amount: debounced };
  const pairOk = PairBody.safeParse(pair).success;
  const quote = useQuery({
    queryKey: ['exchange-quote', type, source.code, toCcy, debounced],
    queryFn: async () => {
      const res = await exchangeQuoteAction(pair);
      if (!res.ok) throw new Error(res.error.message);
      return res.data;
    },
    enabled: pairOk,
    refetchInterval: 30_000,
    retry: false,
  });

  async function onSubmit(e: React.FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const input: Record<string, unknown> = { type, fromCcy: source.code, toCcy, direction: 'from', amount: amount.trim(), toAddress: address.trim() };
    // Another rail than BSC USDT: the chain/token extension says which balance and network pay it.
    if (source.code !== BSC_USDT.code) Object.assign(input, { chain: source.chain, token: source.token });
    if (tag.trim()) input.tag = tag.trim();
    const parsed = ExchangeWithdrawalBody.safeParse(input);
    const res = await submit(parsed.success ? null : fieldErrors(parsed.error.issues), () => exchangeWithdrawAction(input, { totpCode }));
    if (!res) return;
    setResult(res.data);
    toast(`Exchange order ${res.data.exchangeOrder.id} created`);
    router.refresh();
  }

  const q = quote.data;
  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-x-6 gap-y-2 lg:grid-cols-2">
      <div className="space-y-2">
        <FormError message={formError} />
        {sources.length > 1 ? (
          <Field id="x-source" label="Pay from" error={errors.chain ?? errors.token ?? errors.fromCcy}>
            <select id="x-source" value={source.code} onChange={(e) => setSourceCode(e.target.value)} className={inputClass}>
              {sources.map((s) => (
                <option key={s.code} value={s.code}>
                  {s.token} balance, sent on {networkLabel(s.chain)}
                </option>
              ))}
            </select>
          </Field>
        ) : null}
        <CurrencyPicker currencies={targets} value={toCcy} onChange={setToCcy} error={errors.toCcy} />
        <Field id="x-amount" label={`${unit} to send`} error={errors.amount}>
          <input
            id="x-amount"
            inputMode="decimal"
            placeholder="100.00"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            className={inputClass}
            aria-invalid={!!errors.amount}
          />
        </Field>
        <fieldset className="flex gap-4 text-sm">
          <legend className="sr-only">Rate type</legend>
          {(['fixed', 'float'] as const).map((t) => (
            <label key={t} className="flex items-center gap-1.5">
              <input type="radio" name="x-type" checked={type === t} onChange={() => setType(t)} /> {t === 'fixed' ? 'Fixed rate' : 'Floating rate'}
            </label>
          ))}
        </fieldset>
        <Field id="x-address" label="Recipient address" error={errors.toAddress}>
          <input
            id="x-address"
            value={address}
            onChange={(e) => setAddress(e.target.value)}
            className={`${inputClass} font-mono`}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={!!errors.toAddress}
          />
        </Field>
        <Field id="x-tag" label="Memo / tag (if the currency needs one)" error={errors.tag}>
          <input id="x-tag" value={tag} onChange={(e) => setTag(e.target.value)} className={inputClass} />
        </Field>
        <div className="flex items-end justify-end gap-2">
          <StepUpField id="xw-totp" enabled={totpEnabled} value={totpCode} onChange={setTotpCode} />
          <Button type="submit" disabled={busy || !!q?.errors.length}>
            {busy ? 'Creating order…' : 'Withdraw via exchange'}
          </Button>
        </div>
      </div>
      <div className="space-y-3">
        <div className="min-h-36 rounded-md bg-slate-50 p-4 text-sm" aria-live="polite" data-testid="exchange-quote">
          <p className="text-xs font-semibold uppercase text-slate-500">Live quote</p>
          {!pairOk ? (
            <p className="mt-2 text-slate-500">Pick a currency and an amount to see the rate.</p>
          ) : quote.isPending ? (
            <p className="mt-2 text-slate-500">Getting a quote…</p>
          ) : quote.isError ? (
            <p className="mt-2 text-red-600">{quote.error.message}</p>
          ) : q ? (
            <dl className="mt-2 grid grid-cols-2 gap-2">
              <dt className="text-slate-500">You send</dt>
              <dd className="tabular-nums">
                {formatMoney(q.from.amount)} {unit}
              </dd>
              <dt className="text-slate-500">Recipient gets</dt>
              <dd className="tabular-nums font-medium">
                {q.to.amount} {q.to.coin}
              </dd>
              <dt className="text-slate-500">Rate</dt>
              <dd className="tabular-nums">
                1 {unit} = {q.from.rate} {q.to.coin}
              </dd>
              <dt className="text-slate-500">Limits</dt>
              <dd className="tabular-nums">
                {q.min} – {q.max} {unit}
              </dd>
              {q.errors.length > 0 && (
                <dd className="col-span-2 text-red-600">
                  {q.errors
                    .map((e) =>
                      e === 'LIMIT_MIN' ? `Below the minimum of ${q.min} ${unit}` : e === 'LIMIT_MAX' ? `Above the maximum of ${q.max} ${unit}` : e,
                    )
                    .join(' · ')}
                </dd>
              )}
            </dl>
          ) : null}
        </div>
        {result && (
          <div className="rounded-md border border-emerald-200 bg-emerald-50 p-4 text-sm" data-testid="exchange-result">
            <p className="font-semibold text-emerald-900">
              Order {result.exchangeOrder.id} · {result.exchangeOrder.status}
            </p>
            <p className="mt-1 text-emerald-800">
              Sent {formatMoney(result.exchangeOrder.from.amount)} {unit}; recipient gets {result.exchangeOrder.to.amount}{' '}
              {result.exchangeOrder.to.code}.
            </p>
            <p className="mt-1 break-all font-mono text-xs text-emerald-800">
              {result.txHash ? `tx ${result.txHash}` : (result.withdrawal.pendingReason ?? 'transfer queued')}
            </p>
          </div>
        )}
      </div>
    </form>
  );
}
