/**
 * What a new user asks for first (issue 45): the sign-in page, the dashboard, and the README's quick path (create an
 * invoice, pay it with the test helper, read it). Next dev compiles each route at its first request; at load that
 * took 20-100 s a route, one after another as the user got there.
 */
const FIRST_PAGES: [method: string, path: string][] = [
  ['GET', '/sign-in'],
  ['GET', '/dashboard'],
  ['POST', '/v1/invoices'],
  ['POST', '/v1/test-helpers/invoices/inv_warmup/pay'],
  ['GET', '/v1/invoices/inv_warmup'],
];

/**
 * Requests those routes as soon as Next listens, so they compile while the user reads the log. Unauthenticated:
 * the API answers 401 and the dashboard redirects, after compiling. Resolves with the seconds it took, or undefined
 * when stopped (the stack shutting down) or Next never answered. `onSignIn`: once /sign-in answered.
 */
export async function warmUp(base: string, stopped: () => boolean, timeoutMs = 900_000, onSignIn?: () => void): Promise<string | undefined> {
  const t0 = Date.now();
  const get = (method: string, path: string) =>
    fetch(`${base}${path}`, { method, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) }).then((r) => r.arrayBuffer());
  // The first one waits for Next to listen (it refuses connections until then).
  for (;;) {
    if (stopped() || Date.now() - t0 > timeoutMs) return undefined;
    const ok = await get(FIRST_PAGES[0]![0], FIRST_PAGES[0]![1]).then(
      () => true,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 300));
  }
  onSignIn?.();
  await Promise.all(FIRST_PAGES.slice(1).map(([m, p]) => get(m, p).catch(() => undefined)));
  return stopped() ? undefined : ((Date.now() - t0) / 1000).toFixed(0);
}
