import { AutoCollectSetup } from '@/components/checkout/auto-collect';
import type { AutoCollectState, PermitActions } from '@/components/checkout/actions';
import type { CollectionOffer } from '@/lib/subscriptions/collect/collection-offer';

/**
 * One subscription's automatic collection in the customer portal: whether it is on, turning it off (the gateway starts
 * no more pulls; how to withdraw the permission on chain too is shown), and turning it (back) on with the checkout's
 * own set-up (the same terms, the same data to sign). The actions come from app/portal/actions.ts.
 */
export function PortalCollection({
  offer,
  turnOff,
  setUp,
  permit,
}: {
  offer: CollectionOffer;
  turnOff: (formData: FormData) => Promise<void>;
  setUp: (prev: AutoCollectState, formData: FormData) => Promise<AutoCollectState>;
  /** The USDC "sign" path (two messages, no transaction). */
  permit?: PermitActions;
}) {
  if (!offer.supported)
    return (
      <p className="text-xs text-slate-600" data-testid="portal-autocollect" data-state="unsupported">
        Automatic collection is not offered for {offer.rail}: each period&apos;s invoice comes by e-mail.
      </p>
    );
  const s = offer.signing;
  if (offer.on)
    return (
      <div className="space-y-1 text-xs text-slate-600" data-testid="portal-autocollect" data-state="on">
        <p>
          Automatic collection: <strong>on</strong>, from <span className="break-all font-mono">{offer.on.payer}</span>.
        </p>
        <form action={turnOff}>
          <input type="hidden" name="subscriptionId" value={offer.subscriptionId} />
          <button type="submit" className="rounded-md border border-slate-300 px-3 py-1.5 text-xs font-medium text-slate-900 hover:bg-slate-50">
            Turn off automatic collection
          </button>
        </form>
      </div>
    );
  return (
    <div className="space-y-2 text-xs text-slate-600" data-testid="portal-autocollect" data-state="off">
      <p>
        Automatic collection: <strong>off</strong>
        {offer.cancelReason ? ` (${offer.cancelReason})` : ''}. Each period&apos;s invoice comes by e-mail.
      </p>
      {offer.cancelReason ? (
        <div className="space-y-1 rounded-md bg-slate-50 p-2" data-testid="portal-revoke-help">
          <p>
            {offer.merchantName} no longer collects from your wallet. The permission you signed stays on chain until you withdraw it; to do so, from
            that wallet either:
          </p>
          <p className="break-all font-mono">
            call revoke({s.authorize.subscriptionId}) on the collector {s.collectorAddress} (calldata {offer.revokeData})
          </p>
          <p className="break-all font-mono">
            or set the allowance to zero: approve({s.collectorAddress}, 0) on the {offer.token} contract {s.tokenAddress}
          </p>
        </div>
      ) : null}
      <details>
        <summary className="cursor-pointer font-medium text-slate-900">Turn on automatic collection</summary>
        <div className="pt-2">
          <AutoCollectSetup offer={offer} action={setUp} hidden={{ subscriptionId: offer.subscriptionId }} permit={permit} />
        </div>
      </details>
    </div>
  );
}
