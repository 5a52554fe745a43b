import { pollCheckout } from '@/lib/checkout/poll-checkout';
import { presentCheckout } from '@/lib/checkout/present-checkout';
import { getDb } from '@/lib/db';
import { clientIp } from '@/lib/http/client-ip';
import { CLAIM_POLL_COOKIE, cookieValue } from '@/lib/http/secret-url-cookie';

export const dynamic = 'force-dynamic';

const headers = (extra: Record<string, string> = {}) => ({ 'Cache-Control': 'no-store', ...extra });

/**
 * Public, polled by the checkout page: the same fields the page shows (with the QR of what is left to pay), nothing more.
 * Limited per client address and served from a short cache (lib/checkout/poll-checkout.ts). The payer's page sends its
 * claim token in `X-Claim-Token` (a header, not the URL, so it stays out of access logs), and the browser its claim cookie
 * (scoped to /api/pay/<id>, lib/http/secret-url-cookie.ts): with either, full addresses and the refund form.
 */
export async function GET(req: Request, ctx: { params: Promise<{ invoiceId: string }> }) {
  const { invoiceId } = await ctx.params;
  const out = await pollCheckout(await getDb(), invoiceId, clientIp(req.headers));
  if ('retryAfter' in out)
    return Response.json(
      { code: 'rate_limited', message: `Too many status requests from your address; try again in ${out.retryAfter} seconds.` },
      { status: 429, headers: headers({ 'Retry-After': String(out.retryAfter) }) },
    );
  if (!out.view) return Response.json({ code: 'not_found', message: 'Invoice not found.' }, { status: 404, headers: headers() });
  return Response.json(presentCheckout(out.view, req.headers.get('x-claim-token') ?? cookieValue(req.headers.get('cookie'), CLAIM_POLL_COOKIE)), {
    headers: headers(),
  });
}
