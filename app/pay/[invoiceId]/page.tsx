import { notFound } from 'next/navigation';
import { getDb } from '@/lib/db';
import { getCheckoutView } from '@/lib/checkout/get-checkout-view';
import { CheckoutLive } from '@/components/checkout/checkout-live';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Pay · USDT Gateway', robots: { index: false } };

export default async function PayPage({ params }: { params: Promise<{ invoiceId: string }> }) {
  const { invoiceId } = await params;
  const state = await getCheckoutView(await getDb(), invoiceId);
  if (!state) notFound();
  return (
    <main className="mx-auto min-h-screen w-full max-w-md px-4 py-6 sm:py-12">
      {/* Keyed by render time: a new server render (after the refund form's post) starts from its fresher state. */}
      <CheckoutLive key={state.renderedAt} initial={state} />
    </main>
  );
}
