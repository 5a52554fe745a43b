import { NextResponse, type NextRequest } from 'next/server';
import { isProduction } from '@/lib/env';
import { securityHeaders } from '@/lib/http/security-headers';
import { moveSecretToCookie } from '@/lib/http/secret-url-cookie';

/**
 * Security headers for every page and dashboard route (docs/production.md#security-headers):
 * a per-request nonce CSP that Next's own scripts carry (Next reads the nonce from the
 * request's CSP header), frame-ancestors 'none', nosniff, Referrer-Policy, HSTS in production.
 * /v1 is left out: its handlers set their own headers without paying for this hop. A checkout or refund claim URL
 * that carries its secret is first answered with a redirect to the bare URL and the secret in a cookie
 * (lib/http/secret-url-cookie.ts), so no later request or Referer holds it.
 */
export function proxy(request: NextRequest) {
  const moved = moveSecretToCookie(request.method, new URL(request.url), isProduction());
  if (moved) return moved;
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64');
  const headers = securityHeaders(request.nextUrl.pathname, nonce);
  const forwarded = new Headers(request.headers);
  forwarded.set('x-nonce', nonce);
  forwarded.set('Content-Security-Policy', headers['Content-Security-Policy']!);
  const response = NextResponse.next({ request: { headers: forwarded } });
  for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
  return response;
}

export const config = {
  matcher: [
    {
      source: '/((?!v1/|v1$|_next/static|_next/image|favicon.ico|api/health|api/ready|metrics$).*)',
    },
  ],
};
