'use client';

import { useState } from 'react';
import type { CollectionOffer } from '@/lib/subscriptions/collect/collection-offer';
import { permitOfferAction, setUpByPermitAction, setUpCollectionAction } from './actions';
import { AutoCollectSetup } from './auto-collect';

/**
 * The checkout of a subscription's invoice, on the payer's own page (claim token): "Pay now" (the transfer below) or
 * "Pay now and collect automatically" (pay this period, and allow the next ones to be pulled). Only "Pay now" where the
 * rail has no collector. Once this invoice no longer awaits payment, only the offer for the next periods. Needs
 * JavaScript (the choice and the wallet button); the payment itself does not.
 */
export function PayChoice({ offer, invoiceId, claim, awaiting }: { offer: CollectionOffer; invoiceId: string; claim?: string; awaiting: boolean }) {
  const [auto, setAuto] = useState(false);
  if (!offer.supported)
    return (
      <p className="text-xs text-slate-500" data-testid="pay-choice-unsupported">
        Pay now: automatic collection is not offered for {offer.rail}; each period&apos;s invoice comes by e-mail.
      </p>
    );
  if (offer.on)
    return (
      <p className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900" data-testid="autocollect-on">
        Automatic collection is on for <span className="break-all font-mono">{offer.on.payer}</span>: the next periods are collected from this wallet.
        Pay this one below.
      </p>
    );
  const tab = (on: boolean, label: string) => (
    <button
      type="button"
      aria-pressed={auto === on}
      onClick={() => setAuto(on)}
      className={`flex-1 rounded-md px-3 py-2 text-sm font-medium ${auto === on ? 'bg-slate-900 text-white' : 'border border-slate-300 bg-white text-slate-900'}`}
    >
      {label}
    </button>
  );
  return (
    <section className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="pay-choice">
      {awaiting ? (
        <div className="flex gap-2">
          {tab(false, 'Pay now')}
          {tab(true, 'Pay now and collect automatically')}
        </div>
      ) : (
        // This period is paid (or closed): only the next ones remain to allow.
        <div className="flex">{tab(true, 'Collect the next periods automatically')}</div>
      )}
      {auto ? (
        <AutoCollectSetup
          offer={offer}
          action={setUpCollectionAction}
          hidden={{ invoiceId, ...(claim ? { claim } : {}) }}
          permit={{ offer: permitOfferAction, submit: setUpByPermitAction }}
        />
      ) : null}
    </section>
  );
}
