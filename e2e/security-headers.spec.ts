import { expect, test, type APIResponse, type Page, type Response } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { users } from '@/db/schema';
import { createApiKey } from '@/lib/api-keys/create-api-key';
import { closeDb, getDb } from '@/lib/db';
import { APP_PORTS } from '../playwright.config';
import { signUpViaUi, uniqueEmail } from './support/dashboard';

const BASE = `http://127.0.0.1:${APP_PORTS[0]}`;
const PASSWORD = 'correct-horse-battery';

test.afterAll(async () => {
  await closeDb();
});

/** Every CSP refusal the browser reports (console or the securitypolicyviolation event), and page errors. */
function watchViolations(page: Page) {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to (execute|load|apply|connect)/i.test(m.text())) seen.push(m.text());
  });
  page.on('pageerror', (e) => seen.push(`pageerror: ${e.message}`));
  return seen;
}

function expectPageHeaders(res: Response | APIResponse | null, opts: { referrer?: string } = {}) {
  const h = res!.headers();
  const csp = h['content-security-policy'] ?? '';
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(h['x-content-type-options']).toBe('nosniff');
  expect(h['x-frame-options']).toBe('DENY');
  expect(h['referrer-policy']).toBe(opts.referrer ?? 'strict-origin-when-cross-origin');
}

test('pages carry CSP, frame-ancestors, nosniff and Referrer-Policy, and still hydrate under the CSP', async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  const violations = watchViolations(page);
  expectPageHeaders(await page.goto('/sign-in'));
  // A client-side form that signs up and navigates: only works when Next's scripts ran under the policy.
  const email = uniqueEmail('csp');
  await signUpViaUi(page, { business: 'Header Shop', email, password: PASSWORD });
  expectPageHeaders(await page.goto('/dashboard'));
  expectPageHeaders(await page.goto('/dashboard/products'));
  await page.getByRole('button', { name: 'Add product' }).click();
  await page.getByLabel('Name').fill('Header test product');
  await page.getByLabel('Price (USDT)').fill('3.00');
  await page.getByRole('button', { name: 'Create product' }).click();
  await expect(page.locator('[data-product-id]').filter({ hasText: 'Header test product' })).toBeVisible();
  const storeUrl = (await page.getByTestId('store-link').textContent())!.trim();
  // The console answers a merchant with its 403 page: headers all the same.
  expectPageHeaders(await page.goto('/console'));
  expectPageHeaders(await page.goto('/docs'));
  expect(violations).toEqual([]);

  const customerCtx = await browser.newContext({ baseURL: BASE });
  const customer = await customerCtx.newPage();
  const customerViolations = watchViolations(customer);
  expectPageHeaders(await customer.goto(storeUrl), { referrer: 'same-origin' });
  const form = customer.getByRole('form', { name: 'Buy Header test product' });
  await form.getByLabel('Quantity').fill('1');
  await form.getByLabel('Email').fill('customer@example.com');
  await form.getByRole('button', { name: 'Buy with USDT' }).click();
  // The server action redirects client-side (no document request); reload for the checkout's own headers.
  await customer.waitForURL(/\/pay\/inv_/);
  expectPageHeaders(await customer.reload(), { referrer: 'same-origin' });
  await expect(customer.getByTestId('checkout-status')).toHaveAttribute('data-status', 'PENDING');
  // Scripts arriving 1.5 s after the HTML (a slow phone): the countdown must hydrate to the text the server sent.
  await customer.route('**/_next/static/chunks/**', async (route) => {
    await new Promise((r) => setTimeout(r, 1_500));
    await route.continue();
  });
  await customer.reload();
  const countdown = customer.getByTestId('countdown');
  const served = await countdown.textContent();
  await expect(countdown).not.toHaveText(served!, { timeout: 10_000 }); // hydrated: it ticks
  await customer.unroute('**/_next/static/chunks/**');
  expect(customerViolations).toEqual([]);
  await customerCtx.close();

  // /v1: JSON with nosniff and no referrer (HSTS there in production, tested in lib/http).
  const db = await getDb();
  const [u] = await db.select().from(users).where(eq(users.email, email));
  const key = await createApiKey(db, { tenantId: u!.tenantId!, mode: 'test', name: 'headers', scopes: ['admin'] });
  const me = await request.get(`${BASE}/v1/tenants/me`, { headers: { authorization: `Bearer ${key.key}` } });
  expect(me.status()).toBe(200);
  expect(me.headers()['x-content-type-options']).toBe('nosniff');
  expect(me.headers()['referrer-policy']).toBe('no-referrer');
});
