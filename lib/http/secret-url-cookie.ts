/** The checkout's claim token, once moved out of the URL: sent only to its invoice's page and status poll. */
export const CLAIM_COOKIE = 'gw_claim';
/** A refund claim link's secret, once moved out of the URL: sent only to /refund-claim. */
export const REFUND_CLAIM_COOKIE = 'gw_refund_claim';

// What an invoice id and a token may look like (ids are `inv_<ulid>`, tokens base64url): anything else is not put in a cookie.
const SAFE = /^[A-Za-z0-9_-]{1,200}$/;
const MAX_AGE = 30 * 24 * 3600;
// Never cached, and the page it leads to is not told where the browser came from (the secret's URL).
const NO_STORE = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

function cookie(name: string, value: string, path: string, secure: boolean): string {
  return `${name}=${value}; Path=${path}; Max-Age=${MAX_AGE}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/**
 * A URL that carries a bearer secret, answered with a 303 to the same page without it and the secret in an HttpOnly,
 * path-scoped cookie (docs/invoices.md#the-payers-claim-token): `/pay/<id>?claim=<token>` → `/pay/<id>`, cookie for
 * /pay/<id> and /api/pay/<id>; `/refund-claim/<secret>` → `/refund-claim`, cookie for /refund-claim. So the page's
 * own requests (scripts, the status poll, the form's post) and their Referer carry no secret, and only this first
 * request holds it in an access log. Reloads and bookmarks of the bare URL keep working through the cookie. The
 * Location is relative: behind a TLS-terminating balancer the scheme and host stay the browser's. Null: not such a URL.
 */
export function moveSecretToCookie(method: string, url: URL, secure: boolean): Response | null {
  if (method !== 'GET' && method !== 'HEAD') return null;
  const pay = /^\/pay\/([^/]+)$/.exec(url.pathname);
  if (pay && url.searchParams.has('claim')) {
    const id = pay[1]!;
    const token = url.searchParams.get('claim')!;
    const rest = new URLSearchParams(url.searchParams);
    rest.delete('claim');
    const headers = new Headers({ location: `${url.pathname}${rest.size ? `?${rest}` : ''}`, ...NO_STORE });
    if (SAFE.test(id) && SAFE.test(token)) {
      headers.append('set-cookie', cookie(CLAIM_COOKIE, token, `/pay/${id}`, secure));
      headers.append('set-cookie', cookie(CLAIM_COOKIE, token, `/api/pay/${id}`, secure));
    }
    return new Response(null, { status: 303, headers });
  }
  const claim = /^\/refund-claim\/([^/]+)$/.exec(url.pathname);
  if (claim) {
    const headers = new Headers({ location: '/refund-claim', ...NO_STORE });
    if (SAFE.test(claim[1]!)) headers.append('set-cookie', cookie(REFUND_CLAIM_COOKIE, claim[1]!, '/refund-claim', secure));
    return new Response(null, { status: 303, headers });
  }
  return null;
}

/** One cookie's value from a Cookie header (route handlers that take a plain Request). */
export function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}
