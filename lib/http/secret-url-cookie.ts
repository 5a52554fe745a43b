/** The checkout's claim token, once moved out of the URL: sent only to its invoice's pages (/pay/<id>, its receipt). */
export const CLAIM_COOKIE = 'gw_claim';
/** The same token for its status poll (/api/pay/<id>): a second name, as a response sets one cookie per name. */
export const CLAIM_POLL_COOKIE = 'gw_claim_poll';
/** A refund claim link's secret, once moved out of the URL: sent only to /refund-claim. */
export const REFUND_CLAIM_COOKIE = 'gw_refund_claim';

// What an invoice id and a token may look like (ids are `inv_<ulid>`, tokens base64url): anything else is not put in a cookie.
const SAFE = /^[A-Za-z0-9_-]{1,200}$/;
const MAX_AGE = 30 * 24 * 3600;
// Never cached, and the page it leads to is not told where the browser came from (the secret's URL).
const REDIRECT_HEADERS = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' };

export interface SecretCookie {
  name: string;
  value: string;
  path: string;
  maxAge: number;
  httpOnly: true;
  sameSite: 'lax';
  secure: boolean;
}

const secretCookie = (name: string, value: string, path: string, secure: boolean): SecretCookie => ({
  name,
  value,
  path,
  maxAge: MAX_AGE,
  httpOnly: true,
  sameSite: 'lax',
  secure,
});

/**
 * The payer's claim token as cookies scoped to its invoice's paths (none for a value that is not an id or a token).
 * Set by the proxy on `/pay/<id>?claim=` and by the server actions that send a payer to their checkout (payment
 * link, store): those redirect to the bare URL directly (an action's redirect is rendered by a server-side fetch,
 * which would follow the proxy's 303 and drop its cookies).
 */
export function claimCookies(invoiceId: string, token: string, secure: boolean): SecretCookie[] {
  if (!SAFE.test(invoiceId) || !SAFE.test(token)) return [];
  return [secretCookie(CLAIM_COOKIE, token, `/pay/${invoiceId}`, secure), secretCookie(CLAIM_POLL_COOKIE, token, `/api/pay/${invoiceId}`, secure)];
}

/** A checkout URL (`/pay/<id>?claim=<token>`, relative or absolute) split into the bare path and its claim cookies. */
export function checkoutWithoutToken(checkoutUrl: string, secure: boolean): { path: string; cookies: SecretCookie[] } {
  const url = new URL(checkoutUrl, 'http://local');
  const id = /^\/pay\/([^/]+)$/.exec(url.pathname)?.[1];
  const token = url.searchParams.get('claim');
  url.searchParams.delete('claim');
  const path = url.pathname + (url.searchParams.size ? `?${url.searchParams}` : '');
  return { path, cookies: id && token ? claimCookies(id, token, secure) : [] };
}

function serialize(c: SecretCookie): string {
  return `${c.name}=${c.value}; Path=${c.path}; Max-Age=${c.maxAge}; HttpOnly; SameSite=Lax${c.secure ? '; Secure' : ''}`;
}

function redirect(location: string, cookies: SecretCookie[]): Response {
  const headers = new Headers({ location, ...REDIRECT_HEADERS });
  for (const c of cookies) headers.append('set-cookie', serialize(c));
  return new Response(null, { status: 303, headers });
}

/**
 * A URL that carries a bearer secret, answered with a 303 to the same page without it and the secret in HttpOnly,
 * path-scoped cookies (docs/invoices.md#the-payers-claim-token): `/pay/<id>?claim=<token>` → `/pay/<id>`, cookies for
 * /pay/<id> and /api/pay/<id>; `/refund-claim/<secret>` → `/refund-claim`, a cookie for /refund-claim. So the page's
 * own requests (scripts, the status poll, the form's post) and their Referer carry no secret, and only this first
 * request holds it in an access log. Reloads and bookmarks of the bare URL keep working through the cookie. The
 * Location is absolute on the request's own URL (Next's proxy refuses a relative one). Null: not such a URL.
 */
export function moveSecretToCookie(method: string, url: URL, secure: boolean): Response | null {
  if (method !== 'GET' && method !== 'HEAD') return null;
  if (/^\/pay\/[^/]+$/.test(url.pathname) && url.searchParams.has('claim')) {
    const { path, cookies } = checkoutWithoutToken(url.pathname + url.search, secure);
    return redirect(new URL(path, url).toString(), cookies);
  }
  const secret = /^\/refund-claim\/([^/]+)$/.exec(url.pathname)?.[1];
  if (secret)
    return redirect(
      new URL('/refund-claim', url).toString(),
      SAFE.test(secret) ? [secretCookie(REFUND_CLAIM_COOKIE, secret, '/refund-claim', secure)] : [],
    );
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
