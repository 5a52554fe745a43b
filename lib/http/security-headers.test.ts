import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { proxy, config } from '@/proxy';
import { moveSecretToCookie } from './secret-url-cookie';
import { securityHeaders } from './security-headers';

describe('security headers', () => {
  it('proxy gives each page a fresh nonce CSP and hands the same policy to Next for its scripts', () => {
    const a = proxy(new NextRequest('http://127.0.0.1/dashboard'));
    const b = proxy(new NextRequest('http://127.0.0.1/dashboard'));
    const csp = a.headers.get('content-security-policy')!;
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}' 'strict-dynamic'/);
    expect(csp).not.toBe(b.headers.get('content-security-policy'));
    // NextResponse.next({ request: { headers } }) forwards overridden request headers under this prefix.
    expect(a.headers.get('x-middleware-request-content-security-policy')).toBe(csp);
    expect(a.headers.get('x-middleware-request-x-nonce')).toBe(csp.match(/'nonce-([^']+)'/)![1]);
    expect(a.headers.get('x-content-type-options')).toBe('nosniff');
    expect(a.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('the checkout status poll sends no referrer, checkout, store and payment link pages only to themselves; no page may be framed, checkout included', () => {
    for (const [path, referrer] of [
      ['/pay/inv_01ABC', 'same-origin'],
      ['/api/pay/inv_01ABC/status', 'no-referrer'],
      ['/store/bean-shop', 'same-origin'],
      ['/l/AbC123', 'same-origin'],
      ['/refund-claim/AbC123', 'same-origin'],
      ['/refund-claim', 'same-origin'],
    ]) {
      const h = securityHeaders(path!, 'n', false);
      expect(h['Referrer-Policy']).toBe(referrer);
      expect(h['Content-Security-Policy']).toContain("frame-ancestors 'none'");
      expect(h['X-Frame-Options']).toBe('DENY');
    }
  });

  it('production adds HSTS and upgrade-insecure-requests and drops unsafe-eval; development keeps eval for React tooling', () => {
    const prod = securityHeaders('/dashboard', 'n', true);
    expect(prod['Strict-Transport-Security']).toMatch(/max-age=\d{8}; includeSubDomains/);
    expect(prod['Content-Security-Policy']).toContain('upgrade-insecure-requests');
    expect(prod['Content-Security-Policy']).not.toContain('unsafe-eval');
    const dev = securityHeaders('/dashboard', 'n', false);
    expect(dev['Strict-Transport-Security']).toBeUndefined();
    expect(dev['Content-Security-Policy']).toContain("'unsafe-eval'");
  });

  it('the proxy runs for pages, sign-in routes and the docs, not for /v1 or static assets', () => {
    const re = new RegExp(`^${config.matcher[0]!.source}$`);
    for (const p of ['/', '/dashboard', '/pay/inv_1', '/store/x', '/console', '/docs', '/api/auth/session', '/sign-in'])
      expect(re.test(p), p).toBe(true);
    for (const p of ['/v1/tenants/me', '/v1', '/_next/static/chunks/a.js', '/api/health']) expect(re.test(p), p).toBe(false);
  });

  it('a checkout URL with its claim token, or a refund claim link, is answered 303 to the bare page, the secret in an HttpOnly path-scoped cookie', () => {
    const token = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';
    const pay = proxy(new NextRequest(`http://127.0.0.1/pay/inv_01ABC?claim=${token}&lang=en`));
    expect(pay.status).toBe(303);
    expect(pay.headers.get('location')).toBe('http://localhost/pay/inv_01ABC?lang=en');
    expect(pay.headers.get('location')).not.toContain(token);
    const cookies = pay.headers.getSetCookie();
    expect(cookies).toEqual([
      `gw_claim=${token}; Path=/pay/inv_01ABC; Max-Age=2592000; HttpOnly; SameSite=Lax`,
      `gw_claim_poll=${token}; Path=/api/pay/inv_01ABC; Max-Age=2592000; HttpOnly; SameSite=Lax`,
    ]);
    // Secure in production.
    expect(moveSecretToCookie('GET', new URL(`http://x/pay/inv_01ABC?claim=${token}`), true)!.headers.getSetCookie()[0]).toMatch(/; Secure$/);
    const link = proxy(new NextRequest(`http://127.0.0.1/refund-claim/${token}`));
    expect(link.status).toBe(303);
    expect(link.headers.get('location')).toBe('http://localhost/refund-claim');
    expect(link.headers.getSetCookie()).toEqual([`gw_refund_claim=${token}; Path=/refund-claim; Max-Age=2592000; HttpOnly; SameSite=Lax`]);
    // The bare pages, a form's post and another page are passed on; a value that is not a token gets no cookie.
    for (const [method, url] of [
      ['GET', '/pay/inv_01ABC'],
      ['POST', `/pay/inv_01ABC?claim=${token}`],
      ['GET', '/refund-claim'],
      ['GET', `/pay/inv_01ABC/receipt?claim=${token}`],
    ])
      expect(proxy(new NextRequest(`http://127.0.0.1${url}`, { method })).status, `${method} ${url}`).toBe(200);
    const odd = proxy(new NextRequest('http://127.0.0.1/pay/inv_01ABC?claim=%3Cscript%3E'));
    expect([odd.status, odd.headers.get('location'), odd.headers.getSetCookie()]).toEqual([303, 'http://localhost/pay/inv_01ABC', []]);
  });
});
