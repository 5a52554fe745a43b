import { expect, test } from '@playwright/test';
import { privateKeyToAddress, generatePrivateKey } from 'viem/accounts';
import { APP_PORTS } from '../playwright.config';
import { shot, signUpViaUi, startReceiver, uniqueEmail } from './support/dashboard';
import { expectTableUnclipped, watchPageErrors } from './support/page-checks';

const BASE = `http://127.0.0.1:${APP_PORTS[0]}`;
const PASSWORD = 'correct-horse-battery';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test('merchant flow: sign up, key, invoice paid out, withdrawal with Max, webhook test, dead letter and replay', async ({ page, request }) => {
  test.setTimeout(300_000);
  const receiver = await startReceiver();
  try {
    // Sign up: a new tenant and its owner, in test mode.
    await signUpViaUi(page, { business: 'Acme Coffee', email: uniqueEmail('owner'), password: PASSWORD, screenshot: true });
    await expect(page.getByTestId('test-mode-banner')).toBeVisible();
    await expect(page.getByTestId('tenant-name')).toHaveText('Acme Coffee');

    // API key: create with scopes, copy it once.
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Name').fill('Checkout server');
    await page.getByRole('checkbox', { name: /withdrawals:read/ }).check();
    await page.getByRole('button', { name: 'Create key' }).last().click();
    const keyText = page.getByTestId('new-key');
    await expect(keyText).toContainText('gw_test_');
    const key = (await keyText.textContent())!.trim();
    await page.getByRole('button', { name: 'Copy to clipboard' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await shot(page, 'api-keys');

    // Use the key like a merchant's server would.
    const auth = { authorization: `Bearer ${key}` };
    const created = await request.post(`${BASE}/v1/invoices`, { headers: auth, data: { amount: '125.50', externalId: 'order-1001' } });
    expect(created.status()).toBe(201);
    const invoice = (await created.json()) as { id: string; depositAddress: string };
    const paid = await request.post(`${BASE}/v1/test-helpers/invoices/${invoice.id}/pay`, { headers: auth, data: { amount: '125.50' } });
    expect(paid.status()).toBe(200);

    // Detail page follows the invoice to PAID_OUT on its own.
    await page.goto(`/dashboard/invoices/${invoice.id}`);
    await expect(page.getByTestId('deposit-address')).toHaveText(invoice.depositAddress);
    await expect(page.locator('[data-testid="invoice-status"] [data-status]')).toHaveAttribute('data-status', 'PAID_OUT', { timeout: 150_000 });
    await expect(page.getByTestId('timeline')).toContainText('invoice.paid_out');
    await shot(page, 'invoice-detail');
    // At 1280 px the Payments table shows every column (it clipped the last one beside the timeline).
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.reload();
    const payments = page
      .locator('section')
      .filter({ has: page.getByRole('heading', { name: 'Payments', exact: true }) })
      .locator('table')
      .first();
    await expect(payments.locator('tbody tr')).toHaveCount(1);
    await expectTableUnclipped(page, payments);
    await shot(page, 'invoice-detail-1280');

    await page.goto('/dashboard/invoices?q=order-1001');
    await expect(page.getByRole('link', { name: invoice.id })).toBeVisible();
    await shot(page, 'invoices');

    // Balance: 125.50 less the 1% invoice fee in cents (1.255 → 1.26, issue 45).
    await page.getByRole('link', { name: 'Balance & withdrawals' }).click();
    await expect(page.getByTestId('balance-available')).toContainText('124.24');

    // Exchange withdrawal through the local exchange: searchable picker, live quote, order result.
    await page.getByRole('combobox', { name: 'Currency to receive' }).fill('bitcoin');
    await page.getByRole('option', { name: /^Bitcoin \(BTC\)/ }).click();
    await page.getByLabel('USDT to send').fill('50');
    await expect(page.getByTestId('exchange-quote')).toContainText('Recipient gets');
    await expect(page.getByTestId('exchange-quote')).toContainText('Limits');
    await page.getByLabel('Recipient address').fill('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq');
    await page.getByRole('button', { name: 'Withdraw via exchange' }).click();
    await expect(page.getByTestId('exchange-result')).toContainText('Order', { timeout: 45_000 });
    await expect(page.getByTestId('balance-available')).toContainText('74.24');

    // Internal withdrawal of everything with Max: the same numbers as GET /v1/withdrawals/max, and the whole
    // balance goes (74.24 / 1.01 = 73.5049 → 73.50; fee = 74.24 − 73.50, issue 14).
    await page.getByRole('button', { name: 'Max', exact: true }).click();
    const max = (await (await request.get(`${BASE}/v1/withdrawals/max`, { headers: auth })).json()) as { maxAmount: string; feePercent: string };
    expect(max.maxAmount).toBe('73.50');
    await expect(page.getByLabel('Amount (USDT)')).toHaveValue(max.maxAmount);
    await expect(page.getByTestId('wd-fee')).toHaveText('0.74');
    await expect(page.getByTestId('wd-total')).toHaveText('74.24');
    const destination = privateKeyToAddress(generatePrivateKey());
    await page.getByLabel('Destination address on BNB Smart Chain (BEP-20)').fill(destination);
    await page.getByLabel('Destination address on BNB Smart Chain (BEP-20)').blur();
    await expect(page.getByText(/Valid address/)).toBeVisible();
    // Issue 35: the first click only restates what will happen; nothing moves until the confirm click.
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    const review = page.getByRole('dialog', { name: 'Confirm withdrawal' });
    const details = review.getByTestId('confirm-details');
    await expect(details).toContainText('Amount73.50 USDT');
    await expect(details).toContainText('Fee0.74 USDT');
    await expect(details).toContainText('Total debited74.24 USDT');
    await expect(details).toContainText('AssetUSDT');
    await expect(details).toContainText('NetworkBNB Smart Chain (BEP-20)');
    await expect(details).toContainText(`Destination${destination}`);
    await shot(page, 'withdrawal-confirm');
    await expect(page.locator('[data-withdrawal-id]')).toHaveCount(1);
    await expect(page.getByTestId('balance-available')).toContainText('74.24');
    await review.getByRole('button', { name: 'Confirm withdrawal' }).click();
    await expect(page.locator('[data-toast]').filter({ hasText: 'Withdrawal of 73.50 USDT on BNB Smart Chain (BEP-20) created' })).toBeVisible();
    await expect(page.locator('[data-withdrawal-id]')).toHaveCount(2);
    await expect(page.getByTestId('balance-available')).toContainText('0.00');
    await shot(page, 'balance');

    // The balance page hydrates without a mismatch, with its history, in a browser far from UTC with
    // another locale (dates and numbers must not depend on either).
    const elsewhere = await page
      .context()
      .browser()!
      .newContext({ storageState: await page.context().storageState(), timezoneId: 'Pacific/Kiritimati', locale: 'de-DE', baseURL: BASE });
    try {
      const p = await elsewhere.newPage();
      const watch = watchPageErrors(p);
      await p.goto('/dashboard/balance');
      await expect(p.locator('[data-withdrawal-id]')).toHaveCount(2);
      await p.waitForFunction(() => Object.keys(document.querySelector('#wd-amount') ?? {}).some((k) => k.startsWith('__reactFiber')));
      await p.waitForLoadState('networkidle');
      expect(watch.errors).toEqual([]);
    } finally {
      await elsewhere.close();
    }

    // Webhook endpoint at the local receiver; its secret is shown once; a test is delivered.
    await page.getByRole('link', { name: 'Webhooks', exact: true }).click();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByLabel('All events, including ones added later').check();
    await page.getByRole('button', { name: 'Add endpoint' }).last().click();
    await expect(page.getByTestId('endpoint-secret')).toContainText('whsec_');
    await page.getByRole('button', { name: 'Send test' }).click();
    await expect(page.getByTestId('test-outcome')).toContainText('Test delivered · HTTP 200');
    expect(receiver.state.received.some((e) => e.type === 'webhook.test')).toBe(true);
    await shot(page, 'webhooks');

    await page.getByRole('link', { name: 'Webhook deliveries' }).click();
    await expect(page.locator('[data-event-type="webhook.test"] [data-status="SUCCEEDED"]')).toBeVisible();

    // The receiver fails: a new event's delivery is retried on the (shrunk) schedule until dead-lettered.
    receiver.state.fail = true;
    const second = await request.post(`${BASE}/v1/invoices`, { headers: auth, data: { amount: '10.00' } });
    expect(second.status()).toBe(201);
    const deadRow = page.locator('[data-event-type="invoice.created"]').filter({ has: page.locator('[data-status="DEAD_LETTER"]') });
    await expect(async () => {
      await page.goto('/dashboard/webhooks/deliveries?status=DEAD_LETTER');
      await expect(deadRow.first()).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 60_000 });
    await deadRow.first().locator('summary').click();
    await expect(deadRow.first().locator('[data-attempt="8"]')).toContainText('HTTP 500');
    await shot(page, 'dead-letter');

    // Replay from the UI once the receiver is healthy: the new delivery succeeds.
    receiver.state.fail = false;
    // Issue 45: the dashboard's Replay asks first, as the console's does.
    const deadId = await deadRow.first().getAttribute('data-delivery-id');
    await deadRow.first().getByRole('button', { name: 'Replay', exact: true }).click();
    const confirmReplay = page.getByRole('dialog', { name: 'Confirm replay' });
    await expect(confirmReplay.getByTestId('confirm-details')).toContainText('invoice.created');
    await shot(page, 'replay-confirm-1280');
    await confirmReplay.getByRole('button', { name: 'Replay', exact: true }).click();
    await expect(page.locator('[data-toast]').filter({ hasText: 'Replay queued' })).toBeVisible();
    // Replayed once, shown as replayed; a second replay asks with the time of the first.
    await page.goto('/dashboard/webhooks/deliveries?status=DEAD_LETTER');
    const replayed = page.locator(`[data-delivery-id="${deadId}"]`);
    await expect(replayed.getByTestId('replayed')).toBeVisible();
    await replayed.locator('summary').click();
    await replayed.getByRole('button', { name: 'Replay again' }).click();
    const again = page.getByRole('dialog', { name: 'Already replayed: replay again?' });
    await expect(again.getByTestId('confirm-details')).toContainText('Already replayed');
    await page.setViewportSize({ width: 360, height: 800 });
    await shot(page, 'replay-again-360');
    await page.setViewportSize({ width: 1280, height: 800 });
    await again.getByRole('button', { name: 'Back' }).click();
    await expect(async () => {
      await page.goto('/dashboard/webhooks/deliveries?eventType=invoice.created&status=SUCCEEDED');
      await expect(page.locator('[data-event-type="invoice.created"] [data-status="SUCCEEDED"]').first()).toBeVisible({ timeout: 1_000 });
    }).toPass({ timeout: 30_000 });
    await shot(page, 'webhook-deliveries');

    await page.goto('/dashboard');
    await expect(page.getByTestId('overview-available')).toContainText('0.00');
    await page.locator('.recharts-responsive-container').first().waitFor({ timeout: 15_000 });
    await shot(page, 'overview');
    await page.goto('/dashboard/settings');
    await expect(page.getByTestId('invoice-fee')).toContainText('1%');
    await shot(page, 'settings');
  } finally {
    await receiver.close();
  }
});
