import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { eq, sql } from 'drizzle-orm';
import { getAddress, type Address } from 'viem';
import { invoices } from '@/db/schema';
import { closeDb, getDb } from '@/lib/db';
import { Decimal } from '@/lib/money';
import { APP_PORTS } from '../playwright.config';
import { shot } from './support/dashboard';
import { signedUpMerchant, tokenHeld } from './support/merchant';

const BASE = `http://127.0.0.1:${APP_PORTS[0]}`;
const PASSWORD = 'correct-horse-battery';
/** The payer's checkout from the create response (`/pay/<id>?claim=<token>`), as a path on the app under test. */
const payerUrl = (checkoutUrl: string) => {
  const u = new URL(checkoutUrl, BASE);
  return u.pathname + u.search;
};
const masked = (a: string) => `${getAddress(a).slice(0, 6)}…${getAddress(a).slice(-4)}`;
test.afterAll(async () => {
  await closeDb();
});

const merchant = (page: Page, request: APIRequestContext, business: string) => signedUpMerchant(page, request, business, PASSWORD);
const held = tokenHeld;

test('an expired invoice paid late: the payer proposes a refund address on the checkout, the merchant approves, the refund arrives on chain and the balance is debited exactly', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const m = await merchant(page, request, 'Late Refunds');
  // Other sales first (the balance must hold the refund before its invoice fee comes back).
  const sale = await m.post('/v1/invoices', { amount: '30.00' });
  await m.post(`/v1/test-helpers/invoices/${sale.id}/pay`, { amount: '30.00' });
  await expect.poll(async () => (await m.json(`/v1/invoices/${sale.id}`)).status, { timeout: 120_000 }).toBe('PAID_OUT');
  const inv = await m.post('/v1/invoices', { amount: '20.00' });
  // Expire it now (as if its 30 minutes had passed): the worker's expiry job marks it EXPIRED.
  await (
    await getDb()
  )
    .update(invoices)
    .set({ expiresAt: sql`now() - interval '1 second'` })
    .where(eq(invoices.id, inv.id));
  await expect.poll(async () => (await m.json(`/v1/invoices/${inv.id}`)).status, { timeout: 60_000 }).toBe('EXPIRED');
  await m.post(`/v1/test-helpers/invoices/${inv.id}/pay`, { amount: '20.00' });
  // The late payment is confirmed and settled to the balance (the invoice stays EXPIRED).
  await expect.poll(async () => (await m.json(`/v1/invoices/${inv.id}/refunds`)).refundable, { timeout: 120_000 }).toBe('20.00');

  // Anyone else who knows the invoice id (a member, support, a read-only key) sees the payment, not the form (issue 30 §1).
  const stranger = await browser.newContext({ baseURL: BASE });
  const strangerPage = await stranger.newPage();
  await strangerPage.goto(`/pay/${inv.id}`);
  const bare = strangerPage.getByRole('region', { name: 'Refund' });
  await expect(bare.getByTestId('refund-claim-needed')).toContainText('20.00 USDT');
  await expect(bare.getByRole('form', { name: 'Refund address' })).toHaveCount(0);
  await strangerPage.goto(`/pay/${inv.id}?claim=${'A'.repeat(43)}`);
  await expect(strangerPage.getByRole('form', { name: 'Refund address' })).toHaveCount(0);

  // The payer, on a phone, holds the checkout link from the create response (with its claim token).
  expect(inv.checkoutUrl).toMatch(new RegExp(`/pay/${inv.id}\\?claim=[A-Za-z0-9_-]{43}$`));
  const phone = await browser.newContext({ baseURL: BASE, viewport: { width: 360, height: 800 } });
  const payerPage = await phone.newPage();
  await payerPage.goto(payerUrl(inv.checkoutUrl));
  const section = payerPage.getByRole('region', { name: 'Refund' });
  await expect(section.getByTestId('claimable')).toHaveText('20.00 USDT');
  await expect(payerPage.getByTestId('checkout-status')).toContainText('You can get it back below');
  await shot(payerPage, 'checkout-refund-form-360');
  const form = section.getByRole('form', { name: 'Refund address' });
  // A typo in a checksummed address is caught.
  await form.getByLabel(/Your USDT address/).fill('0x8ba1f109551bD432803012645Ac136ddd64DBA73');
  await form.getByRole('button', { name: 'Request refund' }).click();
  await expect(form.getByRole('alert')).toContainText('invalid checksum');
  // A first address, then the one the payer means: the first is superseded, not lost (the merchant's history keeps it).
  const first = `0x${'5b'.repeat(20)}` as Address;
  await form.getByLabel(/Your USDT address/).fill(first);
  await form.getByRole('button', { name: 'Request refund' }).click();
  await expect(section.getByTestId('refund-progress')).toHaveAttribute('data-refund-status', 'REQUESTED');
  const payer = `0x${'5a'.repeat(20)}` as Address;
  await form.getByLabel(/Your USDT address/).fill(payer);
  await form.getByRole('button', { name: 'Use this address instead' }).click();
  await expect(section.getByTestId('refund-progress')).toContainText(getAddress(payer));
  await shot(payerPage, 'checkout-refund-requested-360');
  // The bare page shows that a refund was asked for, the address masked.
  await strangerPage.goto(`/pay/${inv.id}`);
  await expect(bare.getByTestId('refund-progress')).toContainText(masked(payer));
  await expect(bare).not.toContainText(getAddress(payer));
  await stranger.close();

  // The merchant sees the proposal on the invoice and approves it; the amount starts at everything the invoice received.
  const before = (await m.json('/v1/withdrawals/balance')).available as string;
  await page.goto(`/dashboard/invoices/${inv.id}`);
  const history = page.getByTestId('refund-requests');
  await expect(history.locator('li[data-status="SUPERSEDED"]')).toContainText(new RegExp(first, 'i'));
  await expect(history.locator('li[data-status="PENDING"]')).toContainText(new RegExp(payer, 'i'));
  const ask = page.getByRole('form', { name: 'Refund request' });
  await expect(ask.getByLabel('Amount (USDT)')).toHaveValue('20.00');
  await shot(page, 'invoice-refund-request-1280');
  await ask.getByRole('button', { name: 'Approve refund' }).click();
  const review = page.getByRole('dialog', { name: "Confirm refund to the payer's address" });
  await expect(review.getByTestId('confirm-details')).toContainText('Amount20.00 USDT');
  await expect(review.getByTestId('confirm-details')).toContainText(/Destination0x5a5a/i);
  await review.getByRole('button', { name: 'Confirm refund' }).click();
  await expect(page.locator('[data-toast]').filter({ hasText: "Refund to the payer's address created" })).toBeVisible();
  const [request_] = (await m.json(`/v1/refund-requests?invoiceId=${inv.id}`)).data as Record<string, any>[];
  expect(request_).toMatchObject({ status: 'APPROVED', destinationAddress: expect.stringMatching(/^0x5a5a/i), amount: '20.00' });
  const refund = await m.json(`/v1/withdrawals/${request_!.withdrawalId}`);
  // Money the merchant never kept goes back at no cost to it (issue 30 §2): no withdrawal fee, the invoice fee (0.20) returned.
  expect(refund).toMatchObject({ amount: '20.00', feeAmount: '0.00', metadata: { refundOfInvoiceId: inv.id } });
  expect((await m.json('/v1/withdrawals/balance')).available).toBe(new Decimal(before).minus('19.80').toFixed(2));

  // The sending lane pays it; the payer holds exactly 20 USDT and their open checkout page says so, live.
  await expect.poll(async () => (await m.json(`/v1/withdrawals/${refund.id}`)).status, { timeout: 120_000 }).toBe('COMPLETED');
  expect(await held(payer)).toBe('20');
  await expect(section.getByTestId('refund-progress')).toHaveAttribute('data-refund-status', 'COMPLETED', { timeout: 30_000 });
  await expect(section.getByTestId('refund-progress')).toContainText('Refund of 20.00 USDT sent');
  await shot(payerPage, 'checkout-refund-sent-360');
  await payerPage.setViewportSize({ width: 1280, height: 900 });
  await shot(payerPage, 'checkout-refund-sent-1280');
  await phone.close();
});

test('auto-refund policy: set with its delay in the settings; the payer’s checkout (claim token) with the delay 0 is refunded at once, shown beside the paying address, and the form works without JavaScript', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const m = await merchant(page, request, 'Auto Refunds');
  await page.goto('/dashboard/settings');
  const policy = page.getByRole('form', { name: 'Auto-refund policy' });
  await policy.getByLabel(/Refund overpayments automatically/).check();
  await policy.getByLabel('Delay before refunding (seconds)').fill('0');
  await policy.getByRole('button', { name: 'Save' }).click();
  await expect(page.locator('[data-toast]').filter({ hasText: 'Overpayments will be refunded automatically' })).toBeVisible();
  expect(await m.json('/v1/tenants/me')).toMatchObject({ autoRefundOverpayments: true, autoRefundDelaySeconds: 0, autoRefundMaxMultiple: '10' });
  await expect(policy.getByTestId('auto-refund-enabled-at')).toBeVisible();
  await shot(page, 'settings-auto-refund-1280');

  const inv = await m.post('/v1/invoices', { amount: '10.00' });
  await m.post(`/v1/test-helpers/invoices/${inv.id}/pay`, { amount: '12.50' });
  await expect.poll(async () => (await m.json(`/v1/invoices/${inv.id}`)).status, { timeout: 120_000 }).toBe('PAID_OUT');
  const before = (await m.json('/v1/withdrawals/balance')).available as string;

  const noJs = await browser.newContext({ baseURL: BASE, javaScriptEnabled: false, viewport: { width: 1280, height: 900 } });
  const payerPage = await noJs.newPage();
  await payerPage.goto(payerUrl(inv.checkoutUrl));
  const section = payerPage.getByRole('region', { name: 'Refund' });
  await expect(section.getByTestId('claimable')).toHaveText('2.50 USDT');
  await shot(payerPage, 'checkout-overpaid-refund-1280');
  const payer = `0x${'6b'.repeat(20)}` as Address;
  await section.getByLabel(/Your USDT address/).fill(payer);
  await section.getByRole('button', { name: 'Request refund' }).click();
  // Made with the payer's claim token (the link from the create response) and the delay 0: refunded at once.
  await expect(section.getByTestId('refund-progress')).toContainText('Refund of 2.50 USDT');
  const [asked] = (await m.json(`/v1/refund-requests?invoiceId=${inv.id}`)).data as Record<string, any>[];
  expect(asked).toMatchObject({ source: 'payer_token', pendingReason: null });
  await expect.poll(async () => (await m.json(`/v1/refund-requests/${asked!.id}`)).status, { timeout: 60_000 }).toBe('APPROVED');
  // The merchant sees how it was proposed and who paid, on chain, beside the proposed address.
  await page.goto(`/dashboard/invoices/${inv.id}`);
  const row = page.locator(`[data-request-id="${asked!.id}"]`);
  await expect(row.getByTestId('request-source')).toHaveText("payer's checkout");
  await expect(row.getByTestId('payment-sender')).toContainText(/Paid from 0x[0-9a-fA-F]{40}/);
  // A space before the dot (issue 45 read "…d650· a different address").
  await expect(row.getByTestId('payment-sender')).toContainText(/[0-9a-fA-F] · a different address$/);
  await shot(page, 'invoice-refund-request-sender-1280');
  const done = await m.json(`/v1/refund-requests/${asked!.id}`);
  expect(done).toMatchObject({ decidedBy: 'policy' });
  const refund = await m.json(`/v1/withdrawals/${done.withdrawalId}`);
  expect(refund).toMatchObject({ amount: '2.50', metadata: { refundOfInvoiceId: inv.id } });
  // The 2.50 less the invoice fee on it that came back (0.025 → 0.03 in cents): no withdrawal fee.
  expect((await m.json('/v1/withdrawals/balance')).available).toBe(new Decimal(before).minus('2.47').toFixed(2));
  await expect.poll(async () => (await m.json(`/v1/withdrawals/${done.withdrawalId}`)).status, { timeout: 120_000 }).toBe('COMPLETED');
  expect(await held(payer)).toBe('2.5');
  await payerPage.reload();
  await expect(section.getByTestId('refund-progress')).toContainText('Refund of 2.50 USDT');
  await noJs.close();
});
