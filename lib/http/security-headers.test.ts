import { NextRequest } from 'next/server';
import { describe, expect, it } from 'vitest';
import { proxy, config } from '@/proxy';
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
});
