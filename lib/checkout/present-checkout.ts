import { formatAddress } from '@/lib/chain/deposit-keys';
import { claimTokenMatches } from '@/lib/invoices/claim-token';
import type { CheckoutView } from './get-checkout-view';

/** `0x12ab…89cd`: enough to recognise one's own address, not enough to learn someone else's. */
export const maskAddress = (a: string) => {
  const c = formatAddress(a);
  return `${c.slice(0, 6)}…${c.slice(-4)}`;
};

/**
 * What the public checkout shows to one request (issue 30 §1). `claimed`: the request carries the invoice's
 * claim token (the payer's checkout URL), compared in constant time. Without it the page still shows the payment,
 * but takes no refund address (canPropose false) and masks every address the payer gave or was refunded to, since
 * anyone who knows the invoice id can open it. The view itself (built once, cached for every poller) is unmasked;
 * only this decides what leaves the server, and the stored hash never does.
 */
export function presentCheckout(view: CheckoutView, claimToken: string | null | undefined) {
  const { claimTokenHash, ...rest } = view;
  const claimed = claimTokenMatches(claimTokenHash, claimToken);
  const show = (a: string): string => (claimed ? formatAddress(a) : maskAddress(a));
  const r = rest.refund;
  return {
    ...rest,
    /** The request carries the payer's claim token: it may give a refund address and sees full addresses. */
    claimed,
    refund: r
      ? {
          ...r,
          canPropose: r.canPropose && claimed,
          request: r.request ? { ...r.request, destinationAddress: show(r.request.destinationAddress) } : null,
          refunds: r.refunds.map((w) => ({ ...w, to: show(w.to) })),
        }
      : null,
  };
}

export type PublicCheckout = ReturnType<typeof presentCheckout>;
export type PublicCheckoutRefund = NonNullable<PublicCheckout['refund']>;
