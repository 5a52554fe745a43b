import { expect, test, type Page } from '@playwright/test';
import { closeDb } from '@/lib/db';
import { APP_PORTS } from '../playwright.config';
import { shot, signUpViaUi, uniqueEmail } from './support/dashboard';
import { merchantKey } from './support/merchant';

const BASE = `http://127.0.0.1:${APP_PORTS[0]}`;
const PASSWORD = 'correct-horse-battery';
const PAID = /^(DETECTED|CONFIRMED|PROCESSING_PAYOUT|PAID_OUT)$/;

test.afterAll(async () => {
  await closeDb();
});

test('a payment link made in the dashboard, paid twice (once without JavaScript), creates two invoices; a store page posts without JavaScript', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const email = uniqueEmail('links');
  await signUpViaUi(page, { business: 'Link Roasters', email, password: PASSWORD });
  const key = await merchantKey(email);
  const auth = { authorization: `Bearer ${key}` };

  // The owner makes a fixed-price link from the dashboard.
  await page.goto('/dashboard/payment-links');
  await page.getByRole('button', { name: 'New payment link' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name').fill('Coffee beans 1 kg');
  await dialog.getByRole('textbox', { name: 'Amount' }).fill('0');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  await expect(dialog.getByText('must be greater than 0')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Amount' }).fill('12.50');
  await dialog.getByRole('button', { name: 'Create link' }).click();
  await expect(page.locator('[data-toast]').filter({ hasText: 'Payment link “Coffee beans 1 kg” created' })).toBeVisible();
  const row = page.locator('tr[data-link-id]').filter({ hasText: 'Coffee beans 1 kg' });
  await expect(row).toContainText('12.50 USDT');
  const url = (await row.getByTestId('link-url').textContent())!.trim();
  const linkId = (await row.getAttribute('data-link-id'))!;
  expect(url).toMatch(/^\/l\/[\w-]{22}$/);
  await shot(page, 'payment-links-1280');

  const checkoutOf = async (payer: Page, email?: string) => {
    await payer.goto(url);
    await expect(payer.getByTestId('link-amount')).toHaveText('12.50 USDT');
    if (email) await payer.getByLabel('E-mail for your receipt').fill(email);
    await payer.getByRole('button', { name: 'Pay with USDT' }).click();
    // The payer's own checkout: the redirect carries the invoice's claim token (issue 30 §1), which the next hop moves
    // into a cookie for this invoice's paths, leaving the bare URL (lib/http/secret-url-cookie.ts).
    await payer.waitForURL(/\/pay\/inv_\w+$/);
    const id = /\/pay\/(inv_\w+)$/.exec(payer.url())![1]!;
    const claim = (await payer.context().cookies()).find((c) => c.name === 'gw_claim' && c.path === `/pay/${id}`);
    expect(claim?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    return id;
  };
  const pay = async (id: string) => {
    const res = await request.post(`${BASE}/v1/test-helpers/invoices/${id}/pay`, { headers: auth, data: { amount: '12.50' } });
    expect(res.status(), await res.text()).toBe(200);
  };

  // First payer: no JavaScript at all (the form posts and the server redirects to the checkout).
  const noJs = await browser.newContext({ baseURL: BASE, javaScriptEnabled: false });
  const first = await noJs.newPage();
  const firstId = await checkoutOf(first, 'first.payer@example.com');
  await pay(firstId);

  // Second payer: a phone with JavaScript; the checkout follows the payment live.
  const phone = await browser.newContext({ baseURL: BASE, viewport: { width: 360, height: 800 } });
  const second = await phone.newPage();
  await second.goto(url);
  await shot(second, 'payment-link-360');
  const secondId = await checkoutOf(second);
  expect(secondId).not.toBe(firstId);
  await pay(secondId);
  await expect(second.getByTestId('checkout-status')).toHaveAttribute('data-status', PAID, { timeout: 60_000 });

  await expect
    .poll(async () => (await (await request.get(`${BASE}/v1/payment-links/${linkId}`, { headers: auth })).json()).paidCount, { timeout: 60_000 })
    .toBe(2);
  const listed = await (await request.get(`${BASE}/v1/invoices?paymentLinkId=${linkId}`, { headers: auth })).json();
  expect(listed.data.map((i: { id: string }) => i.id).sort()).toEqual([firstId, secondId].sort());
  for (const inv of listed.data) expect(inv).toMatchObject({ paymentLinkId: linkId, amountExpected: '12.50', status: PAID });
  // The first payer left an e-mail for a receipt (issue 48 §3), the second did not.
  expect(listed.data.find((i: { id: string }) => i.id === firstId).customerEmail).toBe('first.payer@example.com');
  expect(listed.data.find((i: { id: string }) => i.id === secondId)).not.toHaveProperty('customerEmail');

  // The dashboard shows the count; disabling closes the page.
  await page.reload();
  await expect(row).toContainText('2');
  await row.getByRole('button', { name: 'Disable Coffee beans 1 kg' }).click();
  await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'DISABLED');
  await first.goto(url);
  await expect(first.getByTestId('link-closed')).toContainText('no longer taking payments');

  // A store page's form posts without JavaScript too (it used to send Origin: null under no-referrer and be refused).
  const product = await request.post(`${BASE}/v1/products`, { headers: auth, data: { name: 'No-JS mug', price: '8.00' } });
  expect(product.status()).toBe(201);
  await page.goto('/dashboard/products');
  const storeUrl = (await page.getByTestId('store-link').textContent())!.trim();
  await first.goto(storeUrl);
  const form = first.getByRole('form', { name: 'Buy No-JS mug' });
  await form.getByLabel('Email').fill('nojs@example.com');
  await form.getByRole('button', { name: 'Buy with USDT' }).click();
  await first.waitForURL(/\/pay\/inv_/);
  await noJs.close();
  await phone.close();
});
