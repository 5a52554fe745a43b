import { getDb } from '@/lib/db';
import { getCheckoutView } from '@/lib/checkout/get-checkout-view';

export const dynamic = 'force-dynamic';

/** Public, polled by the checkout page: the same fields the page shows (with the QR of what is left to pay), nothing more. */
export async function GET(_req: Request, ctx: { params: Promise<{ invoiceId: string }> }) {
  const { invoiceId } = await ctx.params;
  const state = await getCheckoutView(await getDb(), invoiceId);
  if (!state) return Response.json({ code: 'not_found', message: 'Invoice not found.' }, { status: 404, headers: { 'Cache-Control': 'no-store' } });
  return Response.json(state, { headers: { 'Cache-Control': 'no-store' } });
}
