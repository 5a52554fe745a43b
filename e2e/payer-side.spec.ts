import { expect, test } from '@playwright/test';
import { formatUnits } from 'viem';
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

test('payer side: a 0.3 % short payment within a 0.5 % tolerance is paid; a partial payment shows the remainder QR and paying it completes; a EUR invoice at a locked rate', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const email = uniqueEmail('payer');
  await signUpViaUi(page, { business: 'Remainder Books', email, password: PASSWORD });
  const key = await merchantKey(email);
  const auth = { authorization: `Bearer ${key}` };
  const invoice = async (data: Record<string, unknown>) => {
    const res = await request.post(`${BASE}/v1/invoices`, { headers: auth, data });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()) as Record<string, string>;
  };
  const pay = async (id: string, amount: string) => {
    const res = await request.post(`${BASE}/v1/test-helpers/invoices/${id}/pay`, { headers: auth, data: { amount } });
    expect(res.status(), await res.text()).toBe(200);
  };

  // Settings: the merchant accepts payments up to 0.5 % short; more than 5 % is refused by the form.
  await page.goto('/dashboard/settings');
  const form = page.locator('form').filter({ has: page.getByLabel('Underpayment tolerance (%)') });
  await form.getByLabel('Underpayment tolerance (%)').fill('7');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('must be at most 5')).toBeVisible();
  await form.getByLabel('Underpayment tolerance (%)').fill('0.5');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('[data-toast]').filter({ hasText: 'Underpayment tolerance saved' })).toBeVisible();
  expect((await (await request.get(`${BASE}/v1/tenants/me`, { headers: auth })).json()).underpaymentTolerancePercent).toBe('0.5');

  // 0.3 % short: paid, the shortfall shown on the checkout and the dashboard.
  const short = await invoice({ amount: '200.00' });
  expect(short.underpaymentTolerancePercent).toBe('0.5');
  await pay(short.id!, '199.40');
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(`/pay/${short.id}`);
  await expect(page.getByTestId('checkout-status')).toHaveAttribute('data-status', PAID, { timeout: 60_000 });
  await expect(page.getByTestId('shortfall')).toContainText('0.60 USDT short');
  await shot(page, 'checkout-tolerance-360');
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, 'checkout-tolerance-1280');
  await page.goto(`/dashboard/invoices/${short.id}`);
  await expect(page.locator('[data-testid="invoice-status"] [data-status]')).toHaveAttribute('data-status', 'PAID_OUT', { timeout: 120_000 });
  await expect(page.getByTestId('shortfall')).toContainText('0.60');

  // Partial payment: the checkout shows the remainder, a QR for exactly it and the time left.
  const partial = await invoice({ amount: '100.00', returnUrl: 'https://shop.example/orders/42' });
  await pay(partial.id!, '60');
  await page.setViewportSize({ width: 360, height: 800 });
  await page.goto(`/pay/${partial.id}`);
  const status = page.getByTestId('checkout-status');
  await expect(status).toHaveAttribute('data-status', 'PARTIALLY_PAID', { timeout: 60_000 });
  await expect(page.getByTestId('remaining')).toHaveText('40.00');
  const qr = page.getByTestId('qr');
  await expect(qr).toHaveAttribute('data-pay-uri', /&uint256=40000000000000000000$/);
  await expect(qr.locator('svg')).toBeVisible();
  await expect(page.getByTestId('countdown')).toHaveText(/^\d+:\d\d$/);
  await shot(page, 'checkout-remainder-360');
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, 'checkout-remainder-1280');

  // The payer pays what the QR asks for; the page follows it to paid without a reload.
  const uri = (await qr.getAttribute('data-pay-uri'))!;
  await pay(partial.id!, formatUnits(BigInt(/uint256=(\d+)$/.exec(uri)![1]!), 18));
  await expect(status).toHaveAttribute('data-status', PAID, { timeout: 60_000 });
  await expect(page.getByTestId('remainder')).toHaveCount(0);
  await expect(status).toHaveAttribute('data-status', 'PAID_OUT', { timeout: 120_000 });
  await shot(page, 'checkout-remainder-paid-1280');

  // Paid: the merchant's return link and a receipt, which fits a phone.
  await expect(page.getByRole('link', { name: 'Back to Remainder Books' })).toHaveAttribute('href', 'https://shop.example/orders/42');
  await page.setViewportSize({ width: 360, height: 800 });
  await page.getByTestId('receipt-link').click();
  await expect(page.getByTestId('receipt-amount')).toHaveText('100.00 USDT');
  await expect(page.getByText('Payment to Remainder Books')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Print or save' })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await shot(page, 'checkout-receipt-360');
  await page.setViewportSize({ width: 1280, height: 900 });

  // A EUR price: the USDT follows at the rate locked on the invoice (the simulator's 1.08).
  const eur = await invoice({ amount: '50.00', currency: 'EUR' });
  expect(eur).toMatchObject({ amountExpected: '54.00', priceCurrency: 'EUR', priceAmount: '50.00', rate: '1.08', rateSource: 'exchange-sim' });
  await page.goto(`/pay/${eur.id}`);
  await expect(page.getByTestId('price')).toHaveText('50.00 EUR at 1.08 USDT per EUR');
  await expect(page.getByTestId('amount')).toContainText('54.00');
  await page.goto(`/dashboard/invoices/${eur.id}`);
  await expect(page.getByTestId('price')).toContainText('50.00 EUR at 1.08 USDT each');
});
