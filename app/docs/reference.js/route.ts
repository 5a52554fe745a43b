import { readFile } from 'node:fs/promises';
import path from 'node:path';

/*
 * Scalar's standalone API reference bundle, served from node_modules (no CDN:
 * CI and many deployments are offline), followed by the call that mounts it on
 * the page's #gateway-api-reference element (not #api-reference, which the bundle mounts on by itself) with that element's data-configuration.
 * One script, so the page's CSP nonce covers both and the order is fixed.
 */
export const dynamic = 'force-static';

const BUNDLE = path.join(process.cwd(), 'node_modules/@scalar/api-reference/dist/browser/standalone.js');
const MOUNT = `
;(function () {
  var el = document.getElementById('gateway-api-reference');
  if (el) Scalar.createApiReference(el, JSON.parse(el.getAttribute('data-configuration') || '{}'));
})();
`;

export async function GET() {
  const bundle = await readFile(BUNDLE, 'utf8');
  return new Response(bundle + MOUNT, {
    headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'public, max-age=3600' },
  });
}
