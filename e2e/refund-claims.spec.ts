import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { type Address } from 'viem';
import { closeDb } from '@/lib/db';
import { APP_PORTS } from '../playwright.config';
import { shot } from './support/dashboard';
import { signedUpMerchant, tokenHeld } from './support/merchant';

const BASE = `http://127.0.0.1:${APP_PORTS[0]}`;
const PASSWORD = 'correct-horse-battery';
test.afterAll(async () => {
  await closeDb();
});

const merchant = (page: Page, request: APIRequestContext, business: string) => signedUpMerchant(page, request, business, PASSWORD);
const held = tokenHeld;

test('a refund claim link: the merchant makes it in the dashboard, the payer gives an address on it once, the merchant approves the amount and it arrives', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const m = await merchant(page, request, 'Claim Links');
  // Paid exactly (no overpayment: the checkout offers the payer nothing), settled.
  const inv = await m.post('/v1/invoices', { amount: '10.00' });
  await m.post(`/v1/test-helpers/invoices/${inv.id}/pay`, { amount: '10.00' });
  await expect.poll(async () => (await m.json(`/v1/invoices/${inv.id}/refunds`)).refundable, { timeout: 120_000 }).toBe('10.00');

  await page.goto(`/dashboard/invoices/${inv.id}`);
  const make = page.getByRole('form', { name: 'Create refund claim link' });
  await make.getByLabel('Amount').fill('4.00');
  await make.getByLabel('Valid for (hours)').fill('24');
  await make.getByRole('button', { name: 'Create refund claim link' }).click();
  const review = page.getByRole('dialog', { name: 'Confirm refund claim link' });
  await expect(review.getByTestId('confirm-details')).toContainText('Amount4.00 USDT');
  await expect(review.getByTestId('confirm-details')).toContainText('Valid for24 hours');
  await review.getByRole('button', { name: 'Create the link' }).click();
  const shown = make.getByTestId('claim-url');
  await expect(shown).toContainText('/refund-claim/');
  const url = (await shown.locator('code').textContent())!.trim();
  expect(url).toMatch(new RegExp(`^${BASE}/refund-claim/[A-Za-z0-9_-]{43}$`));
  await expect(page.getByTestId('refund-claims').locator('li[data-status="OPEN"]')).toContainText('4.00');
  await shot(page, 'invoice-refund-claim-created-1280');

  // The payer, on a phone, opens the link they were sent.
  const phone = await browser.newContext({ viewport: { width: 360, height: 800 } });
  const payerPage = await phone.newPage();
  const res = await payerPage.goto(url);
  expect(res!.headers()['referrer-policy']).toBe('same-origin');
  await expect(payerPage.getByTestId('claim-amount')).toHaveText('4.00 USDT');
  await expect(payerPage.getByTestId('claim-rail')).toHaveText('USDT on BNB Smart Chain');
  await expect(payerPage.getByRole('heading')).toContainText('Refund from Claim Links');
  const form = payerPage.getByRole('form', { name: 'Refund address' });
  await form.getByLabel(/Your USDT on BNB Smart Chain address/).fill('0x8ba1f109551bD432803012645Ac136ddd64DBA73');
  await form.getByRole('button', { name: 'Request refund' }).click();
  await expect(form.getByRole('alert')).toContainText('invalid checksum');
  // An address no other spec pays (the e2e specs share one chain): holding exactly the claim's amount proves it.
  const payer = `0x${'6c'.repeat(20)}` as Address;
  await form.getByLabel(/Your USDT on BNB Smart Chain address/).fill(payer);
  await shot(payerPage, 'refund-claim-form-360');
  await form.getByRole('button', { name: 'Request refund' }).click();
  await expect(payerPage.getByTestId('claim-done')).toContainText('4.00 USDT');
  await shot(payerPage, 'refund-claim-done-360');
  // One time only: reloaded, the link shows the request it made and its status (issue 45), never the form again.
  await payerPage.goto(url);
  await expect(payerPage.getByTestId('claim-used')).toContainText(/You asked for 4\.00 USDT to be sent to 0x6c6c…6c6c/i);
  await expect(payerPage.getByTestId('claim-request-status')).toHaveText('Waiting for Claim Links to approve it.');
  await expect(payerPage.getByRole('form', { name: 'Refund address' })).toHaveCount(0);
  await shot(payerPage, 'refund-claim-reloaded-360');
  await payerPage.goto(`${BASE}/refund-claim/${'x'.repeat(43)}`);
  await expect(payerPage.getByTestId('claim-invalid')).toHaveText(/This refund link is no longer valid/);

  // The merchant sees the request, the amount prefilled with the link's, and approves it.
  await page.goto(`/dashboard/invoices/${inv.id}`);
  await expect(page.getByTestId('refund-claims').locator('li[data-status="USED"]')).toBeVisible();
  const ask = page.getByRole('form', { name: 'Refund request' });
  await expect(ask.getByLabel('Amount (USDT)')).toHaveValue('4.00');
  await ask.getByRole('button', { name: 'Approve refund' }).click();
  await page.getByRole('dialog', { name: "Confirm refund to the payer's address" }).getByRole('button', { name: 'Confirm refund' }).click();
  await expect(page.locator('[data-toast]').filter({ hasText: "Refund to the payer's address created" })).toBeVisible();
  const [made] = (await m.json(`/v1/refund-requests?invoiceId=${inv.id}`)).data as Record<string, any>[];
  expect(made).toMatchObject({ status: 'APPROVED', amount: '4.00' });
  await expect.poll(async () => (await m.json(`/v1/withdrawals/${made!.withdrawalId}`)).status, { timeout: 120_000 }).toBe('COMPLETED');
  expect(await held(payer)).toBe('4');
  await phone.close();

  // A second link, canceled: Cancel asks first in the shared confirm step, like the other money buttons.
  await make.getByLabel('Amount').fill('1.00');
  await make.getByRole('button', { name: 'Create refund claim link' }).click();
  await page.getByRole('dialog', { name: 'Confirm refund claim link' }).getByRole('button', { name: 'Create the link' }).click();
  const second = page.getByTestId('refund-claims').locator('li[data-status="OPEN"]');
  await expect(second).toContainText('1.00');
  await second.getByRole('button', { name: 'Cancel', exact: true }).click();
  const cancel = page.getByRole('dialog', { name: 'Cancel refund claim link' });
  await expect(cancel.getByTestId('confirm-details')).toContainText('Amount1.00 USDT');
  await cancel.getByRole('button', { name: 'Cancel the link' }).click();
  await expect(page.locator('[data-toast]').filter({ hasText: 'Refund claim link canceled' })).toBeVisible();
  await expect(page.getByTestId('refund-claims').locator('li[data-status="CANCELED"]')).toContainText('1.00');
});
