/**
 * The origin `npm run dev` serves on, as the links it hands out carry it: checkoutUrl, claim links and invitations
 * are absolute in development as in production (issue 45: checkoutUrl was `/pay/inv_…?claim=…`). An explicit
 * PUBLIC_BASE_URL wins; else localhost on PORT (3000 by default).
 */
export function devPublicBaseUrl(e: { PORT?: string; PUBLIC_BASE_URL?: string }): string {
  return e.PUBLIC_BASE_URL || `http://localhost:${e.PORT || '3000'}`;
}
