import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { users, webhookDeliveries } from '@/db/schema';
import { createApiKey } from '@/lib/api-keys/create-api-key';
import { closeDb, getDb } from '@/lib/db';
import { createTestTenant } from '@/lib/testing/fixtures';
import { createUser } from '@/lib/users/create-user';
import { APP_PORTS } from '../playwright.config';
import { SCREENSHOTS, shot, signUpViaUi, startReceiver, uniqueEmail } from './support/dashboard';

const BASE = `http://127.0.0.1:${APP_PORTS[0]}`;
const PASSWORD = 'correct-horse-battery';

test.afterAll(async () => {
  await closeDb();
});

/** A test-mode admin key for the signed-up merchant, made the way `npm run gateway -- key:create` does. */
async function merchantKey(email: string) {
  const db = await getDb();
  const [u] = await db.select().from(users).where(eq(users.email, email));
  const key = await createApiKey(db, { tenantId: u!.tenantId!, mode: 'test', name: 'e2e', scopes: ['admin'] });
  return key.key;
}

async function signInAsSupport(page: Page) {
  const email = uniqueEmail('support');
  await createUser(await getDb(), { email, password: PASSWORD, role: 'support' });
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Support staff have no tenant: signing in lands on the console.
  await expect(page).toHaveURL(/\/console$/, { timeout: 30_000 });
  return email;
}

test('a customer buys from the store, pays, and the checkout turns paid live; the merchant fulfils; order events reach the endpoint', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const receiver = await startReceiver();
  try {
    const email = uniqueEmail('shop');
    await signUpViaUi(page, { business: 'Bean Shop', email, password: PASSWORD });
    const key = await merchantKey(email);
    const auth = { authorization: `Bearer ${key}` };
    const ep = await request.post(`${BASE}/v1/webhooks/endpoints`, {
      headers: auth,
      data: { url: receiver.url, eventsSubscribed: ['order.created', 'order.paid', 'order.fulfilled', 'order.cancelled'] },
    });
    expect(ep.status()).toBe(201);

    // The merchant adds a product in the dashboard.
    await page.getByRole('link', { name: 'Products' }).click();
    await page.getByRole('button', { name: 'Add product' }).click();
    await page.getByLabel('Name').fill('House blend 1 kg');
    await page.getByLabel('Price (USDT)').fill('12.501');
    await page.getByRole('button', { name: 'Create product' }).click();
    await expect(page.locator('#p-price-msg[role="alert"]')).toHaveText('must have at most 2 decimals');
    await page.getByLabel('Price (USDT)').fill('12.50');
    await page.getByLabel('Description').fill('Medium roast, whole beans.');
    await page.getByRole('button', { name: 'Create product' }).click();
    await expect(page.locator('[data-product-id]').filter({ hasText: 'House blend 1 kg' })).toBeVisible();
    await shot(page, 'products');
    const storeUrl = (await page.getByTestId('store-link').textContent())!.trim();

    // A customer, signed out, in another browser context.
    const customerCtx = await browser.newContext({ baseURL: BASE });
    const customer = await customerCtx.newPage();
    await customer.goto(storeUrl);
    const form = customer.getByRole('form', { name: 'Buy House blend 1 kg' });
    await form.getByLabel('Quantity').fill('2');
    await form.getByLabel('Email').fill('customer@example.com');
    await form.getByRole('button', { name: 'Buy with USDT' }).click();
    await expect(customer).toHaveURL(/\/pay\/inv_[0-9A-Z]{26}/, { timeout: 30_000 });
    const invoiceId = customer.url().match(/inv_[0-9A-Z]{26}/)![0];
    await expect(customer.getByTestId('amount')).toContainText('25');
    await expect(customer.getByTestId('checkout-status')).toHaveAttribute('data-status', 'PENDING');

    mkdirSync(SCREENSHOTS, { recursive: true });
    for (const width of [360, 1280]) {
      await customer.setViewportSize({ width, height: width === 360 ? 780 : 900 });
      await customer.screenshot({ path: `${SCREENSHOTS}/checkout-${width}.png`, fullPage: true });
    }
    // Nothing may be wider than a phone's screen.
    await customer.setViewportSize({ width: 360, height: 780 });
    expect(await customer.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);

    // Pays with the test helper; the page must follow without a reload.
    await customer.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    const paid = await request.post(`${BASE}/v1/test-helpers/invoices/${invoiceId}/pay`, { headers: auth, data: { amount: '25.00' } });
    expect(paid.status()).toBe(200);
    await expect(customer.getByTestId('checkout-status')).toHaveAttribute('data-status', /^(CONFIRMED|PROCESSING_PAYOUT|PAID_OUT)$/, {
      timeout: 120_000,
    });
    await expect(customer.getByTestId('checkout-status')).toContainText('Payment received');
    expect(await customer.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    await customer.screenshot({ path: `${SCREENSHOTS}/checkout-paid-360.png`, fullPage: true });
    await customerCtx.close();

    // The merchant sees it paid and fulfils it.
    await page.getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('link', { name: 'Paid', exact: true }).click();
    const row = page.locator('[data-order-id]').filter({ hasText: 'customer@example.com' });
    await expect(row.locator('[data-status="PAID"]')).toBeVisible();
    await shot(page, 'orders');
    await row.getByRole('link').first().click();
    await expect(page.getByTestId('order-status').locator('[data-status]')).toHaveAttribute('data-status', 'PAID');
    await expect(page.getByTestId('order-total')).toContainText('25');
    await page.getByRole('button', { name: 'Mark fulfilled' }).click();
    await expect(page.locator('[data-toast]').filter({ hasText: 'Order fulfilled' })).toBeVisible();
    await expect(page.getByTestId('order-status').locator('[data-status]')).toHaveAttribute('data-status', 'FULFILLED');
    await shot(page, 'order-detail');

    // Archived products leave the store page.
    await page.getByRole('link', { name: 'Products' }).click();
    await page.locator('[data-product-id]').filter({ hasText: 'House blend 1 kg' }).getByRole('button', { name: 'Archive' }).click();
    await expect(page.locator('[data-toast]').filter({ hasText: 'Product archived' })).toBeVisible();
    await expect(page.locator('[data-product-id]').filter({ hasText: 'House blend 1 kg' }).locator('[data-status="ARCHIVED"]')).toBeVisible();
    expect(await (await request.get(`${BASE}${storeUrl}`)).text()).not.toContain('House blend 1 kg');

    // order.created, order.paid and order.fulfilled were delivered to the local endpoint.
    await expect(async () => {
      const types = receiver.state.received.map((e) => e.type);
      expect(types).toEqual(expect.arrayContaining(['order.created', 'order.paid', 'order.fulfilled']));
    }).toPass({ timeout: 30_000 });
  } finally {
    await receiver.close();
  }
});

test('a support user replays a dead-lettered delivery from the console and the audit log shows it', async ({ page, request }) => {
  test.setTimeout(180_000);
  const receiver = await startReceiver();
  try {
    receiver.state.fail = true;
    const t = await createTestTenant({ name: `Failing Hooks ${Date.now()}` });
    const auth = { authorization: `Bearer ${t.test}` };
    const ep = await request.post(`${BASE}/v1/webhooks/endpoints`, {
      headers: auth,
      data: { url: receiver.url, eventsSubscribed: ['invoice.created'] },
    });
    expect(ep.status()).toBe(201);
    const inv = await request.post(`${BASE}/v1/invoices`, { headers: auth, data: { amount: '7.00' } });
    expect(inv.status()).toBe(201);
    // The (shrunk) 8-attempt schedule runs out in seconds.
    const db = await getDb();
    let deliveryId = '';
    await expect(async () => {
      const [d] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.tenantId, t.tenant.id));
      expect(d?.status).toBe('DEAD_LETTER');
      deliveryId = d!.id;
    }).toPass({ timeout: 90_000 });
    receiver.state.fail = false;

    await signInAsSupport(page);
    await page.getByRole('link', { name: 'Dead letters' }).click();
    await page.getByLabel('Tenant id').fill(t.tenant.id);
    await page.getByRole('button', { name: 'Filter' }).click();
    const row = page.locator(`[data-delivery-id="${deliveryId}"]`);
    await expect(row).toContainText('invoice.created');
    await shot(page, 'console-dead-letters');
    await row.getByRole('button', { name: 'Replay' }).click();
    const review = page.getByRole('dialog', { name: 'Confirm replay' });
    await expect(review.getByTestId('confirm-details')).toContainText('invoice.created');
    await review.getByRole('button', { name: 'Replay it' }).click();
    const outcome = page.locator(`[data-outcome-for="${deliveryId}"]`);
    await expect(outcome).toContainText('replayed as whd_');
    await expect(outcome.locator('[data-status="SUCCEEDED"]')).toBeVisible({ timeout: 30_000 });
    expect(receiver.state.received.filter((e) => e.type === 'invoice.created').length).toBeGreaterThanOrEqual(9);
    await shot(page, 'console-replay-outcome');

    await page.getByRole('link', { name: 'Audit log' }).click();
    const audit = page.locator(`[data-audit-action="webhook.dead_letter_replayed"][data-audit-target="${deliveryId}"]`);
    await expect(audit).toBeVisible();
    await expect(audit).toContainText('Support');
    await shot(page, 'console-audit');

    // Search across tenants finds the tenant; its page shows balances per mode and the replay in its activity.
    await page.getByRole('link', { name: 'Search' }).click();
    await page.getByLabel('Search').fill(t.tenant.id);
    await page.getByRole('button', { name: 'Search' }).click();
    await page.locator('[data-hit-kind="tenant"]').getByRole('link').click();
    await expect(page.locator('[data-balance-mode="live"][data-balance-currency="USDT"]')).toBeVisible();
    await expect(page.locator('[data-audit-action="webhook.dead_letter_replayed"]')).toBeVisible();
    await shot(page, 'console-tenant');
  } finally {
    await receiver.close();
  }
});

test('merchants get a 403 on /console (signed-out visitors go to sign-in) and see their own actions in Settings > Activity', async ({ page }) => {
  await page.goto('/console');
  await expect(page).toHaveURL(/\/sign-in$/);
  await signUpViaUi(page, { business: 'Curious Merchant', email: uniqueEmail('curious'), password: PASSWORD });
  for (const path of ['/console', '/console/dead-letters', '/console/audit']) {
    const res = await page.goto(path);
    expect(res?.status()).toBe(403);
    await expect(page.getByTestId('forbidden')).toBeVisible();
  }
  await shot(page, 'console-403');

  // The merchant's own sensitive actions are in Settings > Activity, with the user as actor.
  await page.goto('/dashboard/api-keys');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByLabel('Name').fill('Audited key');
  await page.getByRole('checkbox', { name: /invoices:read/ }).check();
  await page.getByRole('button', { name: 'Create key' }).last().click();
  await expect(page.getByTestId('new-key')).toContainText('gw_test_');
  await page.goto('/dashboard/settings');
  await page.getByRole('link', { name: 'Activity log →' }).click();
  const row = page.locator('[data-audit-action="api_key.created"]');
  await expect(row).toContainText('User');
  await expect(row).toContainText('Audited key');
  await expect(row).not.toContainText('gw_test_');
  await shot(page, 'settings-activity');
});
