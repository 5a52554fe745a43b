import { cookies } from 'next/headers';
import { notFound } from 'next/navigation';
import { CLAIM_COOKIE } from '@/lib/http/secret-url-cookie';
import { getDb } from '@/lib/db';
import { getCheckoutView } from '@/lib/checkout/get-checkout-view';
import { presentCheckout } from '@/lib/checkout/present-checkout';
import { CheckoutLive } from '@/components/checkout/checkout-live';
import { checkoutCollectionOffer } from '@/lib/subscriptions/collect/collection-offer';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Pay', robots: { index: false } };

/**
 * The hosted checkout. `?claim=<token>` (the URL the create response gave the payer) makes it the payer's page: the
 * refund address form and full addresses. Without it, or with a wrong token, it shows the payment only. The proxy
 * answers `?claim=` with a redirect here and the token in a cookie scoped to this invoice's paths
 * (lib/http/secret-url-cookie.ts), so the page reads the cookie; the query is read only from a request that did
 * not pass the proxy's redirect (a form post from a page opened before it).
 */
export default async function PayPage({
  params,
  searchParams,
}: {
  params: Promise<{ invoiceId: string }>;
  searchParams: Promise<{ claim?: string | string[] }>;
}) {
  const { invoiceId } = await params;
  const { claim } = await searchParams;
  const db = await getDb();
  const view = await getCheckoutView(db, invoiceId);
  if (!view) notFound();
  const token = (await cookies()).get(CLAIM_COOKIE)?.value ?? (typeof claim === 'string' ? claim : undefined);
  const state = presentCheckout(view, token);
  // Only the payer (the claim token) is offered automatic collection of a subscription's next periods.
  const collection = state.claimed ? await checkoutCollectionOffer(db, invoiceId) : null;
  return (
    <main className="mx-auto min-h-screen w-full max-w-md px-4 py-6 sm:py-12">
      {/* Keyed by render time: a new server render (after the refund form's post) starts from its fresher state. */}
      <CheckoutLive key={state.renderedAt} initial={state} claim={state.claimed ? token : undefined} collection={collection} />
    </main>
  );
}
