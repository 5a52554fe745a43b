import QRCode from 'qrcode';
import type { Db } from '@/lib/db';
import { getCheckout } from './get-checkout';

export type CheckoutView = NonNullable<Awaited<ReturnType<typeof getCheckoutView>>>;

/**
 * The checkout state with the QR of what is still to pay: the full amount, or
 * after a partial payment exactly the remainder (payUri carries it). Built on
 * every poll so the QR follows the payments; empty once nothing is awaited.
 * `renderedAt` is the server's clock when the view was built: the countdown's
 * first client render starts from it, so hydration shows the text the server sent.
 */
export async function getCheckoutView(db: Db, invoiceId: string) {
  const state = await getCheckout(db, invoiceId);
  if (!state) return null;
  const awaiting = state.status === 'PENDING' || state.status === 'PARTIALLY_PAID';
  const target = state.payin?.address ?? state.payUri;
  const qrSvg = awaiting ? await QRCode.toString(target, { type: 'svg', margin: 1, width: 220, errorCorrectionLevel: 'M' }) : '';
  return { ...state, qrSvg, renderedAt: Date.now() };
}
