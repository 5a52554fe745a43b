import { isProduction } from '@/lib/env';

export const HSTS = 'max-age=63072000; includeSubDomains; preload';

/**
 * The headers every page carries. Scripts: only those with this request's
 * nonce, and what they load ('strict-dynamic'); no inline handlers, no eval
 * (development adds 'unsafe-eval' for React's dev tooling). Styles allow
 * inline (React style attributes, Recharts): style injection cannot run code.
 * No page may be framed, the hosted checkout included: a payment page inside
 * someone else's frame is a clickjacking target, and merchants link or
 * redirect to it instead.
 */
export function securityHeaders(pathname: string, nonce: string, production = isProduction()): Record<string, string> {
  const csp = [
    `default-src 'self'`,
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${production ? '' : ` 'unsafe-eval'`}`,
    `style-src 'self' 'unsafe-inline'`,
    `img-src 'self' data: blob:`,
    `font-src 'self' data:`,
    `connect-src 'self'`,
    `object-src 'none'`,
    `base-uri 'self'`,
    `form-action 'self'`,
    `frame-ancestors 'none'`,
    ...(production ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
  // Checkout, store and payment link URLs (and the checkout's status poll) name an invoice, a store or a link: they are not
  // passed on to the sites customers go to next. Checkout (the refund address form), store and link pages post forms to
  // themselves, so they keep same-origin referrers: under no-referrer a browser sends `Origin: null` with a form post and
  // Next refuses the server action.
  // A refund claim link's secret leaves the URL at the first request (lib/http/secret-url-cookie.ts): the page is the bare
  // /refund-claim, same-origin like checkout (no-referrer would null the Origin of its own address form's post).
  const referrer = pathname.startsWith('/api/pay/')
    ? 'no-referrer'
    : pathname.startsWith('/pay/') || pathname.startsWith('/store/') || pathname.startsWith('/l/') || pathname.startsWith('/refund-claim')
      ? 'same-origin'
      : 'strict-origin-when-cross-origin';
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': referrer,
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    ...(production ? { 'Strict-Transport-Security': HSTS } : {}),
  };
}
