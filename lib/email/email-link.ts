/**
 * A link for an e-mail, which needs an origin: the checkout and claim URLs are already absolute when PUBLIC_BASE_URL
 * is set (always in production and under `npm run dev`), and are then used as they are (prefixing the origin again
 * made `https://pay.examplehttps://pay.example/pay/…`). A bare path (no PUBLIC_BASE_URL) gets localhost:3000.
 */
export function emailLink(pathOrUrl: string): string {
  return /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : `http://localhost:3000${pathOrUrl.startsWith('/') ? '' : '/'}${pathOrUrl}`;
}
