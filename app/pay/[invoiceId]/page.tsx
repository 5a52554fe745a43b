import { notFound } from 'next/navigation';
import QRCode from 'qrcode';
import { getDb } from '@/lib/db';
import { getCheckout } from '@/lib/checkout/get-checkout';
import { CheckoutLive } from '@/components/checkout/checkout-live';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Pay · USDT Gateway', robots: { index: false } };

export default async function PayPage({ params }: { params: Promise<{ invoiceId: string }> }) {
  const { invoiceId } = await params;
  const state = await getCheckout(await getDb(), invoiceId);
  if (!state) notFound();
  const qrTarget = state.payin?.address ?? state.payUri;
  const qrSvg = await QRCode.toString(qrTarget, { type: 'svg', margin: 1, width: 220, errorCorrectionLevel: 'M' });
  return (
    <main className="mx-auto min-h-screen w-full max-w-md px-4 py-6 sm:py-12">
      <CheckoutLive initial={state} qrSvg={qrSvg} />
    </main>
  );
}
