import { getDb } from '@/lib/db';
import { isProduction } from '@/lib/env';
import { redeemPortalLink } from '@/lib/portal/redeem-portal-link';
import { PORTAL_COOKIE } from '@/lib/portal/portal-token';

export const dynamic = 'force-dynamic';

/**
 * A customer portal link (issue 48 §1): redeemed once, then answered with a 303 to /portal and the fresh session
 * secret in an httpOnly cookie scoped to /portal, so the page's own requests and their Referer carry no secret. An
 * unknown, used or expired link clears any session cookie and lands on the same page, which then says the link expired.
 * The Location is relative: behind `next start` the request's URL names localhost, not the host the browser used, and
 * a redirect there would leave the cookie behind.
 */
export async function GET(_request: Request, ctx: { params: Promise<{ token: string }> }) {
  const { token } = await ctx.params;
  const session = await redeemPortalLink(await getDb(), token);
  const secure = isProduction() ? '; Secure' : '';
  const cookie = session
    ? `${PORTAL_COOKIE}=${session.secret}; Path=/portal; Max-Age=${Math.floor((session.expiresAt.getTime() - Date.now()) / 1000)}; HttpOnly; SameSite=Lax${secure}`
    : `${PORTAL_COOKIE}=; Path=/portal; Max-Age=0; HttpOnly; SameSite=Lax${secure}`;
  return new Response(null, {
    status: 303,
    headers: {
      location: '/portal',
      'set-cookie': cookie,
      'cache-control': 'no-store',
      'referrer-policy': 'no-referrer',
    },
  });
}
