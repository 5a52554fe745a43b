import { readFileSync } from 'node:fs';
import { expect, test, type Locator } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { invoices, settlements, users } from '@/db/schema';
import { createApiKey } from '@/lib/api-keys/create-api-key';
import { newId } from '@/lib/ids';
import { closeDb, getDb } from '@/lib/db';
import { Decimal } from '@/lib/money';
import { parseCsv } from '@/lib/statements/parse-csv';
import { createUser } from '@/lib/users/create-user';
import { APP_PORTS } from '../playwright.config';
import { shot, signUpViaUi, uniqueEmail } from './support/dashboard';

const BASE = `http://127.0.0.1:${APP_PORTS[0]}`;
const PASSWORD = 'correct-horse-battery';

test.afterAll(async () => {
  await closeDb();
});

/** No amount with more than 6 decimals (a native coin's cut), and token amounts (USDT, USDC) to the cent. */
async function expectDisplayPrecision(scope: Locator) {
  const text = await scope.innerText();
  expect.soft(text, 'an amount with more than 6 decimals').not.toMatch(/\d\.\d{7,}/);
  expect.soft(text, 'a token amount not to the cent').not.toMatch(/\d\.(\d|\d{3,})\s*(USDT|USDC)\b/);
}

test('a merchant is paid and downloads a statement that adds up; support reads solvency per network and drills down to the addresses', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('statement');
  await signUpViaUi(page, { business: 'Ledger Shop', email, password: PASSWORD });
  const db = await getDb();
  const [u] = await db.select().from(users).where(eq(users.email, email));
  const key = (await createApiKey(db, { tenantId: u!.tenantId!, mode: 'test', name: 'e2e', scopes: ['admin'] })).key;
  const auth = { authorization: `Bearer ${key}` };

  // Paid 12.00 in test mode; the worker confirms, sweeps and credits it.
  const inv = await request.post(`${BASE}/v1/invoices`, { headers: auth, data: { amount: '12.00' } });
  expect(inv.status()).toBe(201);
  const { id } = await inv.json();
  expect((await request.post(`${BASE}/v1/test-helpers/invoices/${id}/pay`, { headers: auth, data: { amount: '12.00' } })).status()).toBe(200);
  await expect
    .poll(async () => (await (await request.get(`${BASE}/v1/invoices/${id}`, { headers: auth })).json()).status, { timeout: 90_000 })
    .toBe('PAID_OUT');

  // The dashboard's balance page: the statement of this month, downloaded as a file.
  await page.goto('/dashboard/balance');
  const form = page.getByRole('form', { name: 'Statement' });
  await expect(form).toBeVisible();
  await shot(page, 'balance-statement');
  const [download] = await Promise.all([page.waitForEvent('download'), form.getByRole('button', { name: 'Download CSV' }).click()]);
  // A new account's dashboard is in test mode, where the payment was made.
  expect(download.suggestedFilename()).toMatch(/^statement-test-USDT-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
  const [header, ...rows] = parseCsv(readFileSync((await download.path())!, 'utf8'));
  const col = (name: string) => header!.indexOf(name);
  const opening = rows[0]!;
  const closing = rows.at(-1)!;
  expect(opening[col('type')]).toBe('opening_balance');
  expect(closing[col('type')]).toBe('closing_balance');
  const entries = rows.slice(1, -1);
  const sum = entries.reduce((s, r) => s.plus(r[col('net')]!), new Decimal(opening[col('balance')]!));
  expect(sum.eq(closing[col('balance')]!)).toBe(true);
  expect(entries.map((r) => r[col('type')])).toEqual(['payment_credit']);
  expect(entries[0]![col('network')]).toBe('BSC');
  expect(entries[0]![col('amount')]).toBe('12.00');

  // Support: the console's solvency page, its table per network and token, and the drill-down.
  const staff = await browser.newContext({ baseURL: BASE });
  const console_ = await staff.newPage();
  const supportEmail = uniqueEmail('support');
  await createUser(db, { email: supportEmail, password: PASSWORD, role: 'support' });
  await console_.goto('/sign-in');
  await console_.getByLabel('Email').fill(supportEmail);
  await console_.getByLabel('Password').fill(PASSWORD);
  await console_.getByRole('button', { name: 'Sign in' }).click();
  await expect(console_).toHaveURL(/\/console$/, { timeout: 30_000 });
  await console_.getByRole('navigation', { name: 'Console' }).getByRole('link', { name: 'Solvency' }).click();
  await expect(console_).toHaveURL(/\/console\/solvency$/);
  const line = console_.locator('[data-solvency-line="token:test:BSC:USDT"]');
  await expect
    .poll(
      async () => {
        await console_.reload();
        return line.count();
      },
      { timeout: 60_000, intervals: [2_000] },
    )
    .toBe(1);
  await expect(line.getByText('covered')).toBeVisible();
  await expect(console_.locator('[data-solvency-line="gas:test:BSC:BNB"]')).toBeVisible();
  // Networks by the name the dashboard gives them, not their wire names (issue 45: "BSC", "ETHEREUM", "TRON").
  await expect.soft(line.locator('td').first()).toContainText('BNB Smart Chain (BEP-20)');
  await expect.soft(console_.getByTestId('solvency-table')).not.toContainText(/\b(BSC|ETHEREUM|POLYGON|ARBITRUM|BASE|TRON)\b/);
  // Every amount in its asset's display precision: tokens to the cent, native coins cut to 6 decimals (issue 45:
  // "999.999759584998317095" beside "1,000.00").
  await expectDisplayPrecision(console_.locator('main'));
  await shot(console_, 'console-solvency');
  await line.getByRole('link', { name: 'Addresses' }).click();
  await expect(console_).toHaveURL(/line=token%3Atest%3ABSC%3AUSDT/);
  await expect(console_.getByTestId('holdings').getByText('hot wallet')).toBeVisible();
  await expect(console_.getByTestId('owed-parts')).toContainText('Tenant balances on this network');
  await expect.soft(console_.getByRole('heading', { name: /^test BNB Smart Chain \(BEP-20\) USDT at block \d+$/ })).toBeVisible();
  await expectDisplayPrecision(console_.locator('main'));
  await shot(console_, 'console-solvency-drill-down');
  await console_.goto('/console/solvency?line=gas%3Atest%3ABSC%3ABNB');
  await expect(console_.getByTestId('holdings').getByText('gas wallet')).toBeVisible();
  await expectDisplayPrecision(console_.locator('main'));
  await shot(console_, 'console-solvency-gas-drill-down');

  // The console's gas and hot wallets: the same precision (the hot wallet's USDT was "1000", its BNB 18 decimals).
  await console_.goto('/console');
  const bsc = console_.locator('[data-gas-mode="test"][data-gas-chain="BSC"]');
  await expect.soft(bsc.locator('[data-wallet="hot"]')).toContainText(/ \d[\d,]*\.\d{2} USDT/);
  await expectDisplayPrecision(console_.getByTestId('gas-wallets'));
  await expectDisplayPrecision(console_.getByTestId('network-costs'));

  // Stuck work's settlement backlog names the network as the dashboard does. A settlement due tomorrow stands for
  // an open one (the worker leaves it alone) and is removed after.
  const open = await request.post(`${BASE}/v1/invoices`, { headers: auth, data: { amount: '3.00' } });
  const [openInv] = await db
    .select()
    .from(invoices)
    .where(eq(invoices.id, (await open.json()).id));
  const stuckId = newId('settlement');
  await db.insert(settlements).values({
    id: stuckId,
    invoiceId: openInv!.id,
    tenantId: openInv!.tenantId,
    mode: 'test',
    chainId: openInv!.chainId,
    token: 'USDT',
    kind: 'invoice',
    amount: '3',
    feeAmount: '0',
    netAmount: '3',
    nextAttemptAt: new Date(Date.now() + 86_400_000),
  });
  try {
    await console_.goto('/console/stuck');
    const backlog = console_.locator('[data-settlement-backlog="test:BSC"]');
    await expect.soft(backlog.locator('td').first()).toContainText('BNB Smart Chain (BEP-20)');
    await expect.soft(backlog.locator('td').first()).not.toContainText(/\bBSC\b/);
    await shot(console_, 'console-stuck-backlog');
  } finally {
    await db.delete(settlements).where(eq(settlements.id, stuckId));
  }

  // The same figures as JSON for the support session; a merchant's session is refused.
  const json = await console_.request.get(`${BASE}/api/operator/solvency`);
  expect(json.status()).toBe(200);
  expect((await json.json()).lines.some((l: { kind: string; chain: string }) => l.kind === 'token' && l.chain === 'BSC')).toBe(true);
  expect((await page.request.get(`${BASE}/api/operator/solvency`)).status()).toBe(403);
  await staff.close();
});
