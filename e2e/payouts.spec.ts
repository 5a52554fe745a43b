import { readFileSync } from 'node:fs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { ADDRESS_RULES } from '../lib/chain/address-rules';
import { APP_PORTS } from '../playwright.config';
import { shot, signUpViaUi, uniqueEmail } from './support/dashboard';

/*
 * Issue 47 §1: the owner pays a batch from the dashboard. A CSV with bad rows (a TRON address on a BSC row, an
 * amount under the minimum) is previewed with per-row errors and nothing debited; fixed by editing the rows; one
 * confirmation; the items complete on the local chain while the page polls; the results CSV holds every item.
 */
const BASE = `http://127.0.0.1:${APP_PORTS[0]}`;
const PASSWORD = 'correct-horse-battery';
const header = 'destinationAddress,amount,chain,token,reference';
const addr = (i: number) => `0x${(0x5a5a0000 + i).toString(16).padStart(40, '0')}`;

async function waitForPaidOut(request: APIRequestContext, auth: Record<string, string>, id: string) {
  await expect
    .poll(async () => ((await (await request.get(`${BASE}/v1/invoices/${id}`, { headers: auth })).json()) as { status: string }).status, {
      timeout: 150_000,
      intervals: [1000],
    })
    .toBe('PAID_OUT');
}

test('owner uploads a payout CSV, fixes the bad rows, confirms once, watches items complete and downloads the results', async ({ page, request }) => {
  test.setTimeout(300_000);
  await signUpViaUi(page, { business: 'Payroll Ltd', email: uniqueEmail('payouts'), password: PASSWORD });

  // A balance to pay from: an invoice paid on the local chain and settled.
  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByLabel('Name').fill('Funding');
  await page.getByRole('checkbox', { name: /invoices:write/ }).check();
  await page.getByRole('button', { name: 'Create key' }).last().click();
  const auth = { authorization: `Bearer ${(await page.getByTestId('new-key').textContent())!.trim()}` };
  const inv = (await (await request.post(`${BASE}/v1/invoices`, { headers: auth, data: { amount: '50.00' } })).json()) as { id: string };
  expect((await request.post(`${BASE}/v1/test-helpers/invoices/${inv.id}/pay`, { headers: auth, data: { amount: '50.00' } })).status()).toBe(200);
  await waitForPaidOut(request, auth, inv.id);

  await page.getByRole('link', { name: 'Payouts' }).click();
  await expect(page.getByRole('heading', { name: 'Payouts', level: 1 })).toBeVisible();
  const run = Date.now().toString(36);
  const good = (i: number, amount: string) => `${addr(i)},${amount},BSC,USDT,${run}-${i}`;
  const bad = [header, good(1, '5.00'), `${ADDRESS_RULES.tron.example},4.00,BSC,USDT,${run}-2`, good(3, '0.001'), good(4, '2.50')].join('\n');
  await page.getByLabel('Or upload a CSV file').setInputFiles({ name: 'payroll.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });

  // Per-row errors, from the server's checks, before anything is debited.
  await expect(page.getByTestId('preview-invalid')).toHaveText('2 with errors');
  const row = (i: number) => page.locator(`[data-row="${i}"]`);
  await expect(row(1).getByTestId('row-errors')).toContainText(`${ADDRESS_RULES.tron.name} address`);
  await expect(row(1).getByTestId('row-errors')).toContainText('invalid_address');
  await expect(row(2).getByTestId('row-errors')).toContainText('amount');
  await expect(row(0)).toContainText('✓ ready');
  await expect(page.getByRole('button', { name: /Pay 4 recipients/ })).toBeDisabled();

  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, 'payouts-preview-1280');
  // At 360 px the table scrolls inside its card, and says so.
  await page.setViewportSize({ width: 360, height: 800 });
  await expect(page.getByTestId('scroll-hint').first()).toBeVisible();
  const table = page.getByTestId('preview-table');
  expect(await table.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await shot(page, 'payouts-preview-360');
  // At 1280 px: every column fits, or the hint says the table scrolls (never a cut column without it).
  await page.setViewportSize({ width: 1280, height: 900 });
  await expect
    .poll(async () => {
      const overflows = await table.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
      return overflows === (await page.getByTestId('scroll-hint').first().isVisible());
    })
    .toBe(true);

  // Fixed by editing the rows, then previewed again.
  const fixed = [header, good(1, '5.00'), good(2, '4.00'), good(3, '1.00'), good(4, '2.50')].join('\n');
  await page.getByLabel(/Rows \(CSV/).fill(fixed);
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByTestId('preview-invalid')).toHaveText('every row passes');
  // 12.50 + 1 % fees (0.05 + 0.04 + 0.01 + 0.03 at the cent) = 12.63.
  await expect(page.getByTestId('total-USDT')).toContainText('12.63');

  await page.getByRole('button', { name: 'Pay 4 recipients' }).click();
  const review = page.getByRole('dialog', { name: 'Confirm payout' });
  await expect(review).toContainText('12.63');
  await review.getByRole('button', { name: 'Confirm payout' }).click();
  await page.waitForURL(/\/dashboard\/payouts\/po_/);

  // Live progress: the page polls until every item is sent and confirmed on the local chain.
  await expect(page.getByTestId('payout-counts')).toHaveText('4 completed · 0 failed · 0 pending', { timeout: 180_000 });
  await shot(page, 'payouts-done-1280');
  await page.setViewportSize({ width: 360, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
  await shot(page, 'payouts-done-360');
  await page.setViewportSize({ width: 1280, height: 900 });

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-results').click()]);
  expect(download.suggestedFilename()).toMatch(/^po_.+-results\.csv$/);
  const lines = readFileSync((await download.path())!, 'utf8')
    .trim()
    .split(/\r\n/);
  expect(lines[0]).toBe(
    'position,reference,status,chain,token,destinationAddress,amount,feeAmount,networkFeeReserved,networkFee,netAmount,txHash,withdrawalId,failureReason',
  );
  const rows = lines.slice(1).map((l) => l.split(','));
  // BSC's flat network fee is 0.00: nothing reserved, nothing charged.
  expect(rows.map((r) => [r[0], r[1], r[2], r[3], r[4], r[5]!.toLowerCase(), r[6], r[7], r[8], r[9]])).toEqual([
    ['0', `${run}-1`, 'COMPLETED', 'BSC', 'USDT', addr(1), '5.00', '0.05', '0.00', '0.00'],
    ['1', `${run}-2`, 'COMPLETED', 'BSC', 'USDT', addr(2), '4.00', '0.04', '0.00', '0.00'],
    ['2', `${run}-3`, 'COMPLETED', 'BSC', 'USDT', addr(3), '1.00', '0.01', '0.00', '0.00'],
    ['3', `${run}-4`, 'COMPLETED', 'BSC', 'USDT', addr(4), '2.50', '0.03', '0.00', '0.00'],
  ]);
  for (const r of rows) expect(r[11]).toMatch(/^0x[0-9a-f]{64}$/);
});
