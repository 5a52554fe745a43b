import { expect, test } from '@playwright/test';
import { eq, sql } from 'drizzle-orm';
import { invoices } from '@/db/schema';
import { closeDb, getDb } from '@/lib/db';
import { createUser } from '@/lib/users/create-user';
import { shot, uniqueEmail } from './support/dashboard';
import { signedUpMerchant } from './support/merchant';

/*
 * Issue 45, the screens walked: an invoice of an earlier run's local chain is marked and offers nothing that cannot
 * work (dashboard, checkout and console), and the overview's status chart names statuses as words.
 */
const PASSWORD = 'correct-horse-battery';

test.afterAll(async () => {
  await closeDb();
});

test("an invoice whose local chain is gone says so on the dashboard, the checkout and the console, with no Pay and no countdown; the chart's statuses are words", async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(120_000);
  const m = await signedUpMerchant(page, request, 'Restarted Stall', PASSWORD);
  const live = await m.post('/v1/invoices', { amount: '10.00' });
  const old = await m.post('/v1/invoices', { amount: '12.00' });
  // Paid (part of it) while its chain still ran: its payment's confirmations stop counting with the chain.
  await m.post(`/v1/test-helpers/invoices/${old.id}/pay`, { amount: '5.00' });
  await expect.poll(async () => ((await m.json(`/v1/invoices/${old.id}`)).payments as unknown[]).length, { timeout: 30_000 }).toBe(1);
  // As after a restart of `npm run dev`: the invoice's chain id is no longer the network's.
  const db = await getDb();
  await db
    .update(invoices)
    .set({ chainId: sql`${invoices.chainId} + 1` })
    .where(eq(invoices.id, old.id as string));

  await page.goto(`/dashboard/invoices/${live.id}`);
  await expect(page.getByText('Live updates')).toBeVisible();
  await expect(page.getByTestId('chain-gone')).toHaveCount(0);
  await expect(page.getByLabel('Simulate a customer payment (test USDT)')).toBeVisible();
  await expect(page.getByRole('img', { name: 'QR code of the deposit address' })).toBeVisible();

  await page.goto(`/dashboard/invoices/${old.id}`);
  await expect(page.getByTestId('chain-gone')).toHaveText('From an earlier run of the local chains: not watched');
  await expect(page.getByText('Live updates')).toHaveCount(0);
  await expect(page.getByLabel('Simulate a customer payment (test USDT)')).toHaveCount(0);
  await expect(page.getByTestId('confirmations-not-watched')).toHaveText(/^\d+ when last watched$/);
  await expect(page.getByRole('img', { name: 'QR code of the deposit address' })).toHaveCount(0);
  await expect(page.getByTestId('deposit-not-watched')).toBeVisible();
  await shot(page, 'invoice-chain-gone-1280');
  await page.setViewportSize({ width: 360, height: 800 });
  await shot(page, 'invoice-chain-gone-360');

  const checkout = new URL(String(old.checkoutUrl), 'http://x');
  await page.goto(checkout.pathname + checkout.search);
  await expect(page.getByTestId('chain-gone')).toContainText('From an earlier run of the local chains: not watched');
  await expect(page.getByTestId('countdown')).toHaveCount(0);
  await expect(page.getByTestId('qr')).toHaveCount(0);
  await shot(page, 'checkout-chain-gone-360');
  await page.setViewportSize({ width: 1280, height: 800 });
  await shot(page, 'checkout-chain-gone-1280');
  await page.goto(`/pay/${live.id}`);
  await expect(page.getByTestId('countdown')).toBeVisible();

  await page.goto('/dashboard');
  // The overview's chart is drawn; no raw status enum name shows anywhere on the page (issue 45: "PAID_OUT",
  // "PENDING" on chart axes). Which axis carries the status words varies with the data, so the page is checked whole.
  await expect(page.locator('.recharts-yAxis').first()).toBeAttached({ timeout: 15_000 });
  await expect(page.locator('main')).not.toContainText(/PAID_OUT|PENDING/);
  await shot(page, 'overview-1280');
  await page.setViewportSize({ width: 360, height: 800 });
  await shot(page, 'overview-360');

  // The console's search marks it too (support sees what the merchant sees); this run's invoice is not marked.
  const staff = await browser.newPage();
  const email = uniqueEmail('support');
  await createUser(db, { email, password: PASSWORD, role: 'support' });
  await staff.goto('/sign-in');
  await staff.getByLabel('Email').fill(email);
  await staff.getByLabel('Password').fill(PASSWORD);
  await staff.getByRole('button', { name: 'Sign in' }).click();
  await expect(staff).toHaveURL(/\/console$/, { timeout: 30_000 });
  await staff.goto(`/console?q=${old.id}`);
  await expect(staff.locator('[data-hit-kind="invoice"]').getByTestId('chain-gone')).toHaveText(
    'From an earlier run of the local chains: not watched',
  );
  await shot(staff, 'console-search-chain-gone-1280');
  await staff.goto(`/console?q=${live.id}`);
  await expect(staff.locator('[data-hit-kind="invoice"]')).toHaveCount(1);
  await expect(staff.getByTestId('chain-gone')).toHaveCount(0);
  await staff.close();
});
