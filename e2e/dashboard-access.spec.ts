import { expect, test } from '@playwright/test';
import { closeDb } from '@/lib/db';
import { totpCode } from '@/lib/auth/totp';
import { createTestTenant } from '@/lib/testing/fixtures';
import { railLabel } from '@/lib/checkout/network-label';
import { splitRailId } from '@/lib/config/rails';
import { DEV_RAILS } from '@/lib/dev/dev-rails';
import { APP_PORTS } from '../playwright.config';
import { shot, signUpViaUi, uniqueEmail } from './support/dashboard';

const BASE = `http://127.0.0.1:${APP_PORTS[0]}`;
const PASSWORD = 'correct-horse-battery';

test.afterAll(async () => {
  await closeDb();
});

test('an invited member signs in but cannot create API keys', async ({ page, browser }) => {
  await signUpViaUi(page, { business: 'Team Owner Co', email: uniqueEmail('owner'), password: PASSWORD });
  await page.goto('/dashboard/settings');
  const memberEmail = uniqueEmail('member');
  await page.getByLabel('Email to invite').fill(memberEmail);
  await page.getByRole('button', { name: 'Invite member' }).click();
  const link = (await page.getByTestId('invite-link').textContent())!.trim();
  expect(link).toContain('/invite/');

  const memberContext = await browser.newContext({ baseURL: BASE });
  const member = await memberContext.newPage();
  await member.goto(link);
  await member.getByLabel('Password').fill(PASSWORD);
  await member.getByRole('button', { name: 'Join and sign in' }).click();
  await expect(member).toHaveURL(/\/dashboard$/);
  await member.goto('/dashboard/api-keys');
  await expect(member.getByTestId('keys-owner-only')).toBeVisible();
  await expect(member.getByRole('button', { name: 'Create key' })).toHaveCount(0);
  await expect(member.getByRole('button', { name: 'Revoke' })).toHaveCount(0);
  await shot(member, 'member-api-keys');
  // Products (prices) are the owner's; the member sees them but cannot change them.
  await member.goto('/dashboard/products');
  await expect(member.getByTestId('products-owner-only')).toBeVisible();
  await expect(member.getByRole('button', { name: /add product/i })).toHaveCount(0);
  // Plans are prices too; subscribing a customer to one is a member's daily work.
  await member.goto('/dashboard/subscriptions');
  await expect(member.getByTestId('plans-owner-only')).toBeVisible();
  await expect(member.getByRole('button', { name: 'New plan' })).toHaveCount(0);
  await expect(member.getByRole('button', { name: 'New subscription' })).toBeVisible();
  await memberContext.close();

  await page.reload();
  await expect(page.getByRole('cell', { name: memberEmail })).toBeVisible();
});

test("a user of tenant A gets a 404 for tenant B's invoice", async ({ page, request }) => {
  const b = await createTestTenant({ name: 'Tenant B' });
  const res = await request.post(`${BASE}/v1/invoices`, { headers: { authorization: `Bearer ${b.test}` }, data: { amount: '5.00' } });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };

  await signUpViaUi(page, { business: 'Tenant A', email: uniqueEmail('tenant-a'), password: PASSWORD });
  const detail = await page.goto(`/dashboard/invoices/${id}`);
  expect(detail?.status()).toBe(404);
  const poll = await page.request.get(`/api/dashboard/invoices/${id}`);
  expect(poll.status()).toBe(404);
  await page.goto(`/dashboard/invoices?q=${id}`);
  await expect(page.getByText('No invoices match these filters')).toBeVisible();
});

test('two-factor sign-in with TOTP and a recovery code; sign-out ends the session', async ({ page }) => {
  const email = uniqueEmail('totp');
  await signUpViaUi(page, { business: 'Careful Co', email, password: PASSWORD });
  await page.goto('/dashboard/settings');
  await page.getByRole('button', { name: 'Set up authenticator app' }).click();
  const secret = (await page.getByTestId('totp-secret').textContent())!.trim();
  await page.getByLabel('Code from the app').fill(totpCode(secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByTestId('totp-state')).toHaveText('on');
  const codes = (await page.getByTestId('recovery-codes').textContent())!.trim().split('\n');
  expect(codes).toHaveLength(10);
  await shot(page, 'settings-2fa');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/sign-in$/);
  await shot(page, 'sign-in');

  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByLabel('Authentication code')).toBeVisible();
  await page.getByLabel('Authentication code').fill('000000');
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Incorrect' })).toBeVisible();
  await page.getByLabel('Authentication code').fill(codes[0]!);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await shot(page, 'signed-in-with-recovery-code');

  // Brute force is slowed: after 5 wrong passwords the account is locked for a while.
  await page.context().clearCookies();
  for (let i = 0; i < 6; i++) {
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(`wrong-password-${i}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').filter({ hasText: /Incorrect|Too many/ })).toBeVisible();
  }
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Too many failed attempts' })).toBeVisible();
  await shot(page, 'sign-in-throttled');
});

test('the mode switch keeps live and test data apart; invoices are created and exported from the UI', async ({ page }) => {
  await signUpViaUi(page, { business: 'Two Modes Ltd', email: uniqueEmail('modes'), password: PASSWORD });
  await page.goto('/dashboard/invoices');
  await page.getByRole('button', { name: 'Create invoice' }).click();
  // Issue 35: the form offers the tenant's accepted rails, BSC USDT preselected. The e2e stack enables the dev
  // rails (e2e/support/stack-env.ts, issue 43), so those are the choices, each named by its rail label.
  const rail = page.getByLabel('Paid in');
  await expect(rail).toHaveValue('BSC:USDT');
  await expect(rail.locator('option')).toHaveCount(DEV_RAILS.length);
  const offered = await rail.locator('option').allTextContents();
  expect([...offered].sort()).toEqual(DEV_RAILS.map((r) => railLabel(splitRailId(r).chain, splitRailId(r).token)).sort());
  await page.getByLabel('Amount', { exact: true }).fill('12.345');
  await page.getByRole('button', { name: 'Create invoice' }).last().click();
  await expect(page.getByText('must have at most 2 decimals')).toBeVisible();
  await page.getByLabel('Amount', { exact: true }).fill('12.34');
  await page.getByLabel('External id (optional)').fill('ui-order-7');
  await page.getByRole('button', { name: 'Create invoice' }).last().click();
  await expect(page).toHaveURL(/\/dashboard\/invoices\/inv_/);
  await expect(page.getByTestId('checkout-link')).toHaveText(/^\/pay\/inv_/);
  await expect(page.getByTestId('deposit-rail')).toHaveText('USDT (BEP-20) on BNB Smart Chain only.');

  const csv = await page.request.get('/dashboard/invoices/export?q=ui-order-7');
  expect(csv.headers()['content-type']).toContain('text/csv');
  const lines = (await csv.text()).trim().split('\n');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(',12.34,');

  // Priced in euros from the form: the USDT due is locked at the simulator's rate (1.08).
  await page.goto('/dashboard/invoices');
  await page.getByRole('button', { name: 'Create invoice' }).click();
  await page.getByLabel('Amount', { exact: true }).fill('10.00');
  await page.getByLabel('Currency').selectOption('EUR');
  await page.getByRole('button', { name: 'Create invoice' }).last().click();
  await expect(page).toHaveURL(/\/dashboard\/invoices\/inv_/);
  await expect(page.getByTestId('price')).toContainText('10.00 EUR at 1.08 USDT each');

  await page.goto('/dashboard/invoices');
  await expect(page.locator('tbody tr')).toHaveCount(2);
  await page.getByTestId('mode-switch').click();
  await expect(page.getByTestId('test-mode-banner')).toHaveCount(0);
  await expect(page.getByText('No invoices yet')).toBeVisible();
  await page.goto('/dashboard/api-keys');
  await expect(page.getByRole('cell', { name: 'Admin (live)' })).toBeVisible();
  await expect(page.getByRole('cell', { name: 'Admin (test)' })).toHaveCount(0);
  await shot(page, 'live-mode-api-keys');
  await page.getByTestId('mode-switch').click();
  await expect(page.getByTestId('test-mode-banner')).toBeVisible();
});
