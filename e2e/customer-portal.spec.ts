import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { closeDb } from '@/lib/db';
import { APP_PORTS } from '../playwright.config';
import { signedUpMerchant } from './support/merchant';

const BASE = `http://127.0.0.1:${APP_PORTS[0]}`;
test.afterAll(async () => {
  await closeDb();
});

const merchant = (page: Page, request: APIRequestContext) => signedUpMerchant(page, request, 'Portal Shop', 'correct-horse-battery');

test('the customer portal: a one-time link, their subscriptions, cancel at period end; the link does not work twice', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const m = await merchant(page, request);
  const plan = await m.post('/v1/plans', { name: 'Pro monthly', amount: '29.00', interval: 'month' });
  const customerEmail = `ann-${Date.now()}@example.com`;
  const sub = await m.post('/v1/subscriptions', { planId: plan.id, customerEmail });
  await m.post('/v1/subscriptions', { planId: plan.id, customerEmail: `bob-${Date.now()}@example.com` });
  const { url } = await m.post('/v1/portal-sessions', { customerEmail });
  const link = new URL(url as string, BASE).toString().replace(/^https?:\/\/[^/]+/, BASE);

  const customer = await (await browser.newContext({ viewport: { width: 360, height: 800 } })).newPage();
  await customer.goto(link);
  // The secret left the URL for a cookie scoped to /portal.
  expect(customer.url()).toBe(`${BASE}/portal`);
  await expect(customer.getByRole('heading')).toContainText('Your subscriptions with Portal Shop');
  const rows = customer.getByTestId('portal-subscription');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText('Pro monthly');
  await expect(rows).toContainText('29.00 USDT');
  await expect(rows.getByTestId('portal-status')).toHaveText('Active');
  await rows.getByRole('button', { name: 'Cancel at period end' }).click();
  await expect(rows.getByTestId('portal-cancel-scheduled')).toHaveText('Cancels at the end of this period.');
  expect((await m.json(`/v1/subscriptions/${sub.id}`)).cancelAtPeriodEnd).toBe(true);

  // The same link a second time, in another browser: refused, a clear page, no 500.
  const again = await (await browser.newContext()).newPage();
  const res = await again.goto(link);
  expect(res!.status()).toBe(200);
  await expect(again.getByTestId('portal-expired')).toHaveText('This link has expired or was already used; ask the merchant for a new one.');
});
