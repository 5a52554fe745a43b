'use client';

import { useEffect, useState } from 'react';
import { CHAIN_GONE_TEXT } from '@/lib/invoices/chain-gone-text';
import type { PublicCheckout as CheckoutState } from '@/lib/checkout/present-checkout';
import { CopyField } from './copy-field';
import { PayChoice } from './pay-choice';
import { RefundSection } from './refund-section';
import type { CollectionOffer } from '@/lib/subscriptions/collect/collection-offer';

const FINAL = new Set(['PAID_OUT', 'EXPIRED', 'FAILED']);

/** A refund proposal or refund still moving: the page keeps polling after the invoice itself is final. */
function refundMoving(s: CheckoutState) {
  const r = s.refund;
  if (!r) return false;
  if (r.refunds.some((w) => w.status === 'PENDING' || w.status === 'PROCESSING')) return true;
  return r.request?.status === 'PENDING';
}
const PAID = new Set(['CONFIRMED', 'PROCESSING_PAYOUT', 'PAID_OUT']);

/**
 * Starts from the server's render time, so the first client render shows the very text the server sent
 * (a clock read during hydration could fall in another second: React error 418, a hydration mismatch),
 * then follows the browser's clock.
 */
function useCountdown(expiresAt: string, renderedAt: number) {
  const [now, setNow] = useState(renderedAt);
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, []);
  const left = Math.max(0, Date.parse(expiresAt) - now);
  const m = Math.floor(left / 60_000);
  const s = Math.floor((left % 60_000) / 1000);
  return { left, label: `${m}:${String(s).padStart(2, '0')}` };
}

function headline(s: CheckoutState): { title: string; tone: string } {
  if (PAID.has(s.status)) return { title: 'Payment received', tone: 'bg-emerald-50 text-emerald-800 border-emerald-200' };
  if (s.status === 'OVERPAID') return { title: 'Payment received (more than requested)', tone: 'bg-emerald-50 text-emerald-800 border-emerald-200' };
  if (s.status === 'DETECTED')
    return {
      title:
        s.confirmations >= s.confirmationsRequired
          ? 'Payment confirmed: finishing up'
          : // Blocks keep coming after the requirement is met; never show 33/5.
            `Payment detected: ${s.confirmations}/${s.confirmationsRequired} confirmations`,
      tone: 'bg-sky-50 text-sky-800 border-sky-200',
    };
  if (s.status === 'PARTIALLY_PAID')
    return { title: `Partially paid: ${s.remaining} ${s.token} still to pay`, tone: 'bg-amber-50 text-amber-800 border-amber-200' };
  if (s.status === 'EXPIRED')
    return s.payments > 0
      ? {
          title: s.refund?.canPropose
            ? 'Expired: your payment arrived late or incomplete. You can get it back below'
            : s.refund
              ? 'Expired: your payment arrived late or incomplete'
              : 'Expired: your payment arrived late or incomplete and was passed on to the merchant; contact them',
          tone: 'bg-amber-50 text-amber-800 border-amber-200',
        }
      : { title: 'This payment request has expired', tone: 'bg-slate-100 text-slate-700 border-slate-200' };
  if (s.status === 'FAILED')
    return { title: 'Payment received; the merchant is finishing the settlement', tone: 'bg-amber-50 text-amber-800 border-amber-200' };
  return { title: 'Waiting for payment', tone: 'bg-white text-slate-700 border-slate-200' };
}

/**
 * The live part of the hosted checkout: polls the public status endpoint every 2 s until final.
 * Each answer carries the QR of what is still to pay, so after a partial payment it encodes the remainder.
 * `claim`: the payer's claim token when the page was opened with a valid one; sent with each poll in a header.
 * `collection`: on the payer's page of a subscription's invoice, the automatic collection offer (pay-choice.tsx).
 */
export function CheckoutLive({ initial, claim, collection }: { initial: CheckoutState; claim?: string; collection?: CollectionOffer | null }) {
  const [state, setState] = useState(initial);
  const countdown = useCountdown(state.expiresAt, initial.renderedAt);
  const moving = refundMoving(state);
  useEffect(() => {
    if ((FINAL.has(state.status) && !moving) || state.notWatched) return;
    const t = setInterval(async () => {
      try {
        const res = await fetch(`/api/pay/${state.id}/status`, { cache: 'no-store', headers: claim ? { 'x-claim-token': claim } : {} });
        if (res.ok) setState(await res.json());
      } catch {
        /* offline for a moment: keep the last state */
      }
    }, 2000);
    return () => clearInterval(t);
  }, [state.id, state.status, state.notWatched, moving, claim]);

  const h = headline(state);
  // An invoice of an earlier dev run's chain: nothing would see a payment, so no address to pay and no countdown.
  const awaiting = (state.status === 'PENDING' || state.status === 'PARTIALLY_PAID') && !state.notWatched;
  const partial = state.status === 'PARTIALLY_PAID';
  // Any non-zero digit: a shortfall was accepted (a string test, money never goes through a float).
  const short = /[1-9]/.test(state.amountShortfall) && !awaiting;
  const amountToPay = state.payin
    ? `${state.payin.amount} ${state.payin.currency}`
    : `${state.status === 'PARTIALLY_PAID' ? state.remaining : state.amountExpected} ${state.token}`;
  return (
    <div className="space-y-4">
      {state.mode === 'test' ? (
        <div className="rounded-md bg-amber-100 px-3 py-1.5 text-center text-xs font-semibold uppercase tracking-wide text-amber-900">
          Test mode: no real funds
        </div>
      ) : null}
      <header className="text-center">
        <p className="text-sm text-slate-500">Pay {state.tenantName}</p>
        <p className="mt-1 text-3xl font-semibold tabular-nums" data-testid="amount">
          {state.amountExpected} <span className="text-lg font-medium text-slate-500">{state.token}</span>
        </p>
        {state.price ? (
          <p className="mt-1 text-sm text-slate-500" data-testid="price" title={`Rate locked at ${state.price.rateAt}`}>
            {state.price.amount} {state.price.currency} at {state.price.rate} {state.token} per {state.price.currency}
          </p>
        ) : null}
        <p className="mt-1 text-xs text-slate-500" data-testid="rail">
          {state.rail}
        </p>
      </header>

      <div
        role="status"
        aria-live="polite"
        data-testid="checkout-status"
        data-status={state.status}
        className={`rounded-lg border px-4 py-3 text-sm font-medium ${h.tone}`}
      >
        {h.title}
      </div>

      {partial ? (
        <section className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900" data-testid="remainder">
          <p>
            Received <span className="tabular-nums">{state.amountReceived}</span> of <span className="tabular-nums">{state.amountExpected}</span>{' '}
            {state.token}.
          </p>
          <p className="mt-1 text-base font-semibold">
            Remaining:{' '}
            <span className="tabular-nums" data-testid="remaining">
              {state.remaining}
            </span>{' '}
            {state.token}
          </p>
          <p className="mt-1 text-xs">
            Pay the remainder before the time runs out (<span className="font-mono tabular-nums">{countdown.label}</span> left)
            {state.qrHasAmount
              ? '; the QR below asks for exactly this amount.'
              : '; the QR below holds the address only: enter this amount yourself.'}
          </p>
        </section>
      ) : null}

      {short ? (
        <p className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900" data-testid="shortfall">
          Accepted {state.amountShortfall} {state.token} short of the amount, within {state.tenantName}&apos;s underpayment tolerance. Nothing more to
          pay.
        </p>
      ) : null}

      {state.notWatched ? (
        <p className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900" data-testid="chain-gone">
          {CHAIN_GONE_TEXT}. This payment request was made on a local test chain that has since been restarted: do not pay it.
        </p>
      ) : null}

      {collection ? <PayChoice offer={collection} invoiceId={state.id} claim={claim} awaiting={awaiting} /> : null}

      {awaiting ? (
        <section className="space-y-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
          <p className="text-sm text-slate-600">
            Send exactly <strong className="tabular-nums">{amountToPay}</strong>
            {state.payin ? '' : ` on ${state.network}`} to:
          </p>
          <div
            className="mx-auto w-fit rounded-lg border border-slate-100 p-2"
            aria-label={partial && state.qrHasAmount ? 'QR code of the payment address and the remaining amount' : 'QR code of the payment address'}
            data-testid="qr"
            data-pay-uri={state.payin ? undefined : state.payUri}
            dangerouslySetInnerHTML={{ __html: state.qrSvg }}
          />
          <CopyField label="Deposit address" value={state.payin?.address ?? state.depositAddress} />
          {state.payin?.tag ? <CopyField label="Memo / tag" value={state.payin.tag} /> : null}
          <CopyField
            label={partial ? 'Remaining amount' : 'Amount'}
            value={state.payin?.amount ?? (partial ? state.remaining : state.amountExpected)}
          />
          <p className="text-center text-sm text-slate-500">
            Expires in{' '}
            <span className="font-mono tabular-nums" data-testid="countdown">
              {countdown.label}
            </span>
          </p>
        </section>
      ) : null}

      {state.heldPayments.length > 0 ? (
        <section className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900" data-testid="held-payments">
          {state.heldPayments.map((m, i) => (
            <p key={i}>
              Received {m.amount} {m.token} on {m.network}: {m.mismatch === 'token' ? 'not the token' : 'not the network'} this invoice asks for.{' '}
              {m.status === 'refunding'
                ? `${state.tenantName} is sending it back to the address it came from.`
                : m.status === 'refunded'
                  ? `${state.tenantName} sent it back to the address it came from.`
                  : m.status === 'credited'
                    ? `${state.tenantName} accepted it${m.mismatch === 'network' ? ' as a payment of this invoice' : ''}.`
                    : m.refundFailed
                      ? `Sending it back failed; it is safe and held for ${state.tenantName}, who can send it back again or settle it with you.`
                      : `It is safe and held for ${state.tenantName}, who will settle it with you.`}
            </p>
          ))}
        </section>
      ) : null}

      {state.refund ? (
        <RefundSection
          invoiceId={state.id}
          refund={state.refund}
          tenantName={state.tenantName}
          token={state.token}
          network={state.network}
          addressFamily={state.addressFamily}
          claim={state.claimed ? claim : undefined}
        />
      ) : null}

      {PAID.has(state.status) || state.status === 'FAILED' ? (
        <a
          href={`/pay/${state.id}/receipt`}
          data-testid="receipt-link"
          className="block rounded-md border border-slate-300 bg-white px-4 py-2 text-center text-sm font-medium text-slate-700 hover:bg-slate-50"
        >
          View receipt
        </a>
      ) : null}
      {state.returnUrl && !awaiting ? (
        <a href={state.returnUrl} className="block rounded-md bg-slate-900 px-4 py-2 text-center text-sm font-medium text-white">
          Back to {state.tenantName}
        </a>
      ) : null}
      <p className="text-center text-xs text-slate-400">Invoice {state.id}</p>
    </div>
  );
}
