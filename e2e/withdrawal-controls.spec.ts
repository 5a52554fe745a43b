import { expect, test, type APIRequestContext } from '@playwright/test';
import { APP_PORTS } from '../playwright.config';
import { shot, signUpViaUi, uniqueEmail } from './support/dashboard';

const BASE = `http://127.0.0.1:${APP_PORTS[0]}`;
const PASSWORD = 'correct-horse-battery';
const DEST = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

async function waitForPaidOut(request: APIRequestContext, auth: Record<string, string>, id: string) {
  await expect
    .poll(async () => ((await (await request.get(`${BASE}/v1/invoices/${id}`, { headers: auth })).json()) as { status: string }).status, {
      timeout: 150_000,
      intervals: [1000],
    })
    .toBe('PAID_OUT');
}

test('owner adds an allow-list address, sets a 24 h limit and approves a held API withdrawal', async ({ page, request }) => {
  test.setTimeout(300_000);
  await signUpViaUi(page, { business: 'Controls Ltd', email: uniqueEmail('controls'), password: PASSWORD });

  // A key that can withdraw, and a balance to withdraw from.
  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByLabel('Name').fill('Payout server');
  await page.getByRole('checkbox', { name: /withdrawals:read/ }).check();
  await page.getByRole('checkbox', { name: /withdrawals:write/ }).check();
  await page.getByRole('button', { name: 'Create key' }).last().click();
  const key = (await page.getByTestId('new-key').textContent())!.trim();
  const auth = { authorization: `Bearer ${key}` };
  const inv = (await (await request.post(`${BASE}/v1/invoices`, { headers: auth, data: { amount: '50.00' } })).json()) as { id: string };
  expect((await request.post(`${BASE}/v1/test-helpers/invoices/${inv.id}/pay`, { headers: auth, data: { amount: '50.00' } })).status()).toBe(200);
  await waitForPaidOut(request, auth, inv.id);

  // Settings > Withdrawal controls: allow-list on, limit 30, approval above 10.
  await page.goto('/dashboard/settings');
  const panel = page.getByTestId('withdrawal-controls');
  await panel.getByLabel('Only allow withdrawals to the addresses below').check();
  await panel.getByLabel('24-hour limit for API keys (USD, all assets, empty = none)').fill('30');
  await panel.getByLabel('Approve API withdrawals above (USD, empty = never)').fill('10');
  await panel.getByRole('button', { name: 'Save controls' }).click();
  await expect(page.locator('[data-toast]').filter({ hasText: 'Withdrawal controls saved' })).toBeVisible();

  // A new address waits out the cooling-off period (24 h by default): the API refuses it meanwhile.
  await panel.getByLabel('Address', { exact: true }).fill(DEST);
  await panel.getByLabel('Label (optional)').fill('Treasury');
  await panel.getByRole('button', { name: 'Add address' }).click();
  await expect(panel.getByTestId('allowlist')).toContainText('cooling off until');
  const refused = await request.post(`${BASE}/v1/withdrawals`, { headers: auth, data: { amount: '20.00', destinationAddress: DEST } });
  expect(refused.status()).toBe(403);
  expect(((await refused.json()) as { code: string }).code).toBe('destination_not_allowed');

  // Removal is immediate; with a zero cooling-off the address is usable at once.
  await panel.getByRole('button', { name: 'Remove' }).click();
  await expect(panel.getByTestId('allowlist')).toContainText('No addresses yet.');
  await panel.getByLabel('Cooling-off for new addresses (hours)').fill('0');
  await panel.getByRole('button', { name: 'Save controls' }).click();
  await expect(page.locator('[data-toast]').filter({ hasText: 'Withdrawal controls saved' }).last()).toBeVisible();
  await panel.getByLabel('Address', { exact: true }).fill(DEST);
  await panel.getByRole('button', { name: 'Add address' }).click();
  await expect(panel.getByTestId('allowlist')).toContainText('active');

  // Above the threshold: held for approval. Over the limit: refused with what remains.
  const held = await request.post(`${BASE}/v1/withdrawals`, { headers: auth, data: { amount: '20.00', destinationAddress: DEST } });
  expect(held.status()).toBe(201);
  const w = (await held.json()) as { id: string; status: string; pendingReason: string };
  expect(w).toMatchObject({ status: 'PENDING', pendingReason: 'awaiting_approval' });
  const over = await request.post(`${BASE}/v1/withdrawals`, { headers: auth, data: { amount: '15.00', destinationAddress: DEST } });
  expect(over.status()).toBe(400);
  expect((await over.json()) as { code: string; message: string }).toMatchObject({
    code: 'withdrawal_limit_exceeded',
    message: expect.stringContaining('10.00 USD of the 24-hour limit'),
  });

  // The owner approves it; the sending lane then takes it.
  await page.reload();
  // Issue 35: the panel says what the limit binds and shows what remains of it (the API's own sum, held withdrawals included).
  const allowance = panel.getByTestId('daily-allowance');
  await expect(allowance).toContainText(/Withdrawn in the last 24 hours \(dashboard and API\): 20\.00\s*USD/);
  await expect(allowance).toContainText(/10\.00\s*USD of the 24-hour limit of 30\.00\s*USD remains for API keys/);
  await expect(panel).not.toContainText('not limited');
  const row = page.getByTestId(`approval-${w.id}`);
  await expect(row).toContainText('20.00');
  await shot(page, 'withdrawal-controls');
  await row.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByTestId('awaiting-approval')).toContainText('Nothing waits for approval.');
  const after = (await (await request.get(`${BASE}/v1/withdrawals/${w.id}`, { headers: auth })).json()) as {
    pendingReason: string | null;
    status: string;
  };
  expect(after.pendingReason).not.toBe('awaiting_approval');
  const controls = (await (await request.get(`${BASE}/v1/withdrawals/controls`, { headers: auth })).json()) as { dailyRemaining: string };
  expect(controls.dailyRemaining).toBe('10.00');
});
