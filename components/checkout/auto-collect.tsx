'use client';

import { useActionState, useState, useSyncExternalStore } from 'react';
import type { CollectionOffer } from '@/lib/subscriptions/collect/collection-offer';
import type { AutoCollectState, PermitActions } from './actions';
import { CopyField } from './copy-field';
import { INJECTED_WALLETS, WALLET_NAMES, type Eip1193 } from './wallets';

type Offer = Extract<CollectionOffer, { supported: true }>;
const noSubscription = () => () => {};

/** The cap, the period and how to stop it, in plain words: what the payer agrees to. */
export function AutoCollectTerms({ offer }: { offer: Offer }) {
  const days = offer.periodDays === 1 ? 'day' : `${offer.periodDays} days`;
  return (
    <p className="text-sm text-slate-700" data-testid="autocollect-terms">
      You allow {offer.merchantName} to collect at most{' '}
      <strong className="tabular-nums">
        {offer.amount} {offer.token}
      </strong>{' '}
      every {days} into this gateway&apos;s addresses, from <time dateTime={offer.startsAt}>{offer.startsAt.slice(0, 10)}</time> on ({offer.rail}).
      You can stop it any time by revoking the allowance or in the customer portal.
    </p>
  );
}

/**
 * USDC (EIP-2612): the wallet signs the token's Permit and the collector's Authorize (eth_signTypedData_v4, no
 * transaction, no gas coin); the gateway checks both and sends permitAndAuthorize from its own wallet.
 */
async function signPermitWithWallet(offer: Offer, actions: PermitActions, hidden: Record<string, string>): Promise<AutoCollectState> {
  const eth = (window as unknown as { ethereum?: Eip1193 }).ethereum!;
  const [from] = (await eth.request({ method: 'eth_requestAccounts' })) as string[];
  await eth.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: `0x${offer.signing.chainId.toString(16)}` }] });
  const got = await actions.offer(hidden, from!);
  if (!got.offer) return { error: got.error ?? 'The messages to sign could not be prepared: try again.' };
  const { typedData, chainId, permitValue, deadline } = got.offer;
  const signTyped = async (td: unknown) => (await eth.request({ method: 'eth_signTypedData_v4', params: [from, JSON.stringify(td)] })) as string;
  const permitSignature = await signTyped(typedData.permit);
  const authorizeSignature = await signTyped(typedData.authorize);
  return actions.submit(hidden, { payer: from!, chainId, permitValue, deadline, permitSignature, authorizeSignature });
}

/**
 * Turning automatic collection on (the checkout of a subscription's invoice, the customer portal): the terms, what the
 * wallet signs (approve on the token, authorize on the collector: the same data as GET /v1/subscriptions/{id}/collection,
 * in the rail family's address form, as the call and its calldata, with an EIP-681 link on EVM), a button for the
 * family's injected wallet (wallets.ts: window.ethereum, TronLink), and the form that gives the server the wallet's
 * address (it reads the permission back from the chain). `action` is the caller's server action; `hidden` its fields.
 * On a USDC rail (`offer.permit`) with an injected wallet, `permit` offers signing two messages instead: no
 * transaction for the payer; the approve path stays for wallets that cannot (and for USDT, which has no permit).
 */
export function AutoCollectSetup({
  offer,
  action,
  hidden,
  permit,
}: {
  offer: Offer;
  action: (prev: AutoCollectState, formData: FormData) => Promise<AutoCollectState>;
  hidden: Record<string, string>;
  permit?: PermitActions;
}) {
  const [formState, formAction, pending] = useActionState(action, {});
  const [signedOn, setSignedOn] = useState<string | null>(null);
  const state: AutoCollectState = signedOn ? { on: signedOn } : formState;
  const [payer, setPayer] = useState('');
  const [walletError, setWalletError] = useState<string | null>(null);
  const [signing, setSigning] = useState(false);
  // False on the server and while hydrating (the server cannot know), then the browser's answer.
  const wallet = INJECTED_WALLETS[offer.family];
  const hasWallet = useSyncExternalStore(
    noSubscription,
    () => wallet.present(),
    () => false,
  );
  const walletName = WALLET_NAMES[offer.family];
  const s = offer.signing;
  if (state.on)
    return (
      <p className="rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-900" data-testid="autocollect-on">
        Automatic collection is on for <span className="break-all font-mono">{state.on}</span>. The next periods are collected from this wallet.
      </p>
    );
  return (
    <section className="space-y-3" data-testid="autocollect" data-subscription-id={offer.subscriptionId}>
      <AutoCollectTerms offer={offer} />
      {offer.permit && permit && hasWallet ? (
        <div className="space-y-1" data-testid="autocollect-permit">
          <button
            type="button"
            disabled={signing}
            className="w-full rounded-md bg-slate-900 px-4 py-2.5 text-sm font-medium text-white disabled:opacity-60"
            onClick={async () => {
              setSigning(true);
              setWalletError(null);
              try {
                const r = await signPermitWithWallet(offer, permit, hidden);
                if (r.on) setSignedOn(r.on);
                else setWalletError(r.error ?? 'Automatic collection could not be turned on.');
              } catch (err) {
                setWalletError(err instanceof Error ? err.message : String(err));
              } finally {
                setSigning(false);
              }
            }}
          >
            {signing ? 'Waiting for your wallet…' : 'Sign with my wallet (no transaction, no gas)'}
          </button>
          <p className="text-xs text-slate-600">
            Your wallet signs two messages: the {offer.token} permit ({offer.approvePeriods} periods) and the authorization above. This gateway sends
            them; {offer.merchantName} pays the network fee. Or send the two transactions below.
          </p>
        </div>
      ) : null}
      <ol className="list-decimal space-y-3 pl-5 text-sm text-slate-700">
        <li data-testid="autocollect-approve" data-token={s.tokenAddress} data-spender={s.approve.spender} data-amount={offer.approveUnits}>
          <p>
            Approve the collector on the {offer.token} contract for {offer.approveTotal} {offer.token} ({offer.approvePeriods} periods): the allowance
            is used by each collection; approve again when it runs out.
          </p>
          <CopyField label="Token contract" value={s.tokenAddress} />
          <CopyField label="approve: spender" value={s.approve.spender} />
          <CopyField label="approve: amount (base units)" value={offer.approveUnits} />
          {offer.approveUri ? <CopyField label="Payment link (EIP-681)" value={offer.approveUri} /> : null}
          <p className="break-all font-mono text-xs text-slate-600">
            approve({s.approve.spender}, {offer.approveUnits})
          </p>
        </li>
        <li
          data-testid="autocollect-authorize"
          data-collector={s.collectorAddress}
          data-args={JSON.stringify([
            s.authorize.subscriptionId,
            s.authorize.token,
            s.authorize.maxPerPeriod,
            s.authorize.periodSeconds,
            s.authorize.start,
          ])}
          data-calldata={offer.authorizeData}
        >
          <p>From the same wallet ({walletName}), call authorize on the collector:</p>
          <CopyField label="Collector contract" value={s.collectorAddress} />
          <p className="break-all font-mono text-xs text-slate-600">
            authorize({s.authorize.subscriptionId}, {s.authorize.token}, {s.authorize.maxPerPeriod}, {s.authorize.periodSeconds}, {s.authorize.start})
          </p>
          <CopyField label="authorize: calldata" value={offer.authorizeData} />
        </li>
      </ol>
      {hasWallet ? (
        <button
          type="button"
          disabled={signing}
          className="w-full rounded-md border border-slate-300 px-4 py-2 text-sm font-medium text-slate-900 hover:bg-slate-50 disabled:opacity-60"
          onClick={async () => {
            setSigning(true);
            setWalletError(null);
            try {
              setPayer(await wallet.sign(offer));
            } catch (err) {
              setWalletError(err instanceof Error ? err.message : String(err));
            } finally {
              setSigning(false);
            }
          }}
        >
          {signing ? 'Waiting for your wallet…' : 'Sign both with my wallet'}
        </button>
      ) : null}
      {walletError ? (
        <p role="alert" className="text-sm text-rose-700">
          {walletError}
        </p>
      ) : null}
      <form action={formAction} className="space-y-2" aria-label="Automatic collection">
        {Object.entries(hidden).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <label className="block text-xs font-medium text-slate-500" htmlFor={`payer-${offer.subscriptionId}`}>
          The wallet address you signed with
        </label>
        <input
          id={`payer-${offer.subscriptionId}`}
          name="payer"
          required
          autoComplete="off"
          spellCheck={false}
          placeholder={offer.payerInput.placeholder}
          pattern={offer.payerInput.pattern}
          title={offer.payerInput.title}
          value={payer}
          onChange={(e) => setPayer(e.target.value)}
          className="w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm"
        />
        {state.error ? (
          <p role="alert" className="text-sm text-rose-700" data-testid="autocollect-error">
            {state.error}
          </p>
        ) : null}
        <button
          type="submit"
          disabled={pending}
          className="w-full rounded-md bg-slate-900 px-4 py-2.5 text-sm font-medium text-white disabled:opacity-60"
        >
          {pending ? 'Checking the chain…' : 'Turn on automatic collection'}
        </button>
      </form>
    </section>
  );
}
