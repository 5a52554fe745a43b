import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { users } from '@/db/schema';
import { createApiKey } from '@/lib/api-keys/create-api-key';
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
  await shot(console_, 'console-solvency');
  await line.getByRole('link', { name: 'Addresses' }).click();
  await expect(console_).toHaveURL(/line=token%3Atest%3ABSC%3AUSDT/);
  await expect(console_.getByTestId('holdings').getByText('hot wallet')).toBeVisible();
  await expect(console_.getByTestId('owed-parts')).toContainText('Tenant balances on this network');
  await shot(console_, 'console-solvency-drill-down');

  // The same figures as JSON for the support session; a merchant's session is refused.
  const json = await console_.request.get(`${BASE}/api/operator/solvency`);
  expect(json.status()).toBe(200);
  expect((await json.json()).lines.some((l: { kind: string; chain: string }) => l.kind === 'token' && l.chain === 'BSC')).toBe(true);
  expect((await page.request.get(`${BASE}/api/operator/solvency`)).status()).toBe(403);
  await staff.close();
});
