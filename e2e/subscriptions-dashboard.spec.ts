import { expect, test } from '@playwright/test';
import { closeDb } from '@/lib/db';
import { DEV_RAILS } from '@/lib/dev/dev-rails';
import { APP_PORTS } from '../playwright.config';
import { shot, signUpViaUi, uniqueEmail } from './support/dashboard';
import { portalLinkMailedTo } from './support/inbox';

const BASE = `http://127.0.0.1:${APP_PORTS[0]}`;

test.afterAll(async () => {
  await closeDb();
});

test('issue 48 in the dashboard: plans on an EVM rail and on TRON, a subscription, the portal link, the customer changes network', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  await signUpViaUi(page, { business: 'Rail Gym', email: uniqueEmail('subs-dash'), password: 'correct-horse-battery' });
  await page.goto('/dashboard/subscriptions');

  // The plan form offers every rail the account accepts, TRON included; the API's rules show by the field.
  await page.getByRole('button', { name: 'New plan' }).click();
  const rail = page.getByLabel('Paid in');
  expect((await rail.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).sort()).toEqual([...DEV_RAILS].sort());
  await page.getByLabel('Name').fill('Pro on Ethereum');
  await page.getByLabel('Amount', { exact: true }).fill('10.123');
  await rail.selectOption('ETHEREUM:USDT');
  await page.getByRole('button', { name: 'Create plan' }).click();
  await expect(page.locator('#plan-amount-msg')).toContainText('2 decimals');
  await page.getByLabel('Amount', { exact: true }).fill('10.00');
  await page.getByRole('button', { name: 'Create plan' }).click();
  await expect(page.locator('[data-plan-id]').filter({ hasText: 'Pro on Ethereum' })).toContainText('10.00 USDT on ETHEREUM');

  await page.getByRole('button', { name: 'New plan' }).click();
  await page.getByLabel('Name').fill('Tron monthly');
  await page.getByLabel('Amount', { exact: true }).fill('12.50');
  await page.getByLabel('Paid in').selectOption('TRON:USDT');
  await page.getByLabel('Grace days').fill('3');
  await page.getByRole('button', { name: 'Create plan' }).click();
  const tronPlan = page.locator('[data-plan-id]').filter({ hasText: 'Tron monthly' });
  await expect(tronPlan).toContainText('12.50 USDT on TRON');
  await expect(tronPlan).toContainText('0 d / 3 d');

  // Priced in a fiat currency ("Price in"): USDT plans only, the refusal under its field; then listed with its price.
  await page.getByRole('button', { name: 'New plan' }).click();
  await page.getByLabel('Name').fill('Pro in euros');
  await page.getByLabel('Amount', { exact: true }).fill('9.99');
  await page.getByLabel('Price in').selectOption('EUR');
  await page.getByLabel('Paid in').selectOption('ETHEREUM:USDC');
  await page.getByRole('button', { name: 'Create plan' }).click();
  await expect(page.locator('#plan-price-in-msg')).toContainText('must be absent for a USDC plan');
  await page.getByLabel('Paid in').selectOption('BSC:USDT');
  await page.getByRole('button', { name: 'Create plan' }).click();
  await expect(page.locator('[data-plan-id]').filter({ hasText: 'Pro in euros' })).toContainText('9.99 EUR in USDT on BSC');

  // A subscription to the TRON plan: the network picker holds the plan's token on every accepted network.
  const customer = uniqueEmail('customer');
  await page.getByRole('button', { name: 'New subscription' }).click();
  await page.getByLabel('Customer e-mail').fill(customer);
  await page.getByLabel('Plan', { exact: true }).selectOption({ label: 'Tron monthly: 12.50 USDT' });
  const network = page.getByLabel('Network', { exact: true });
  await expect(network).toHaveValue('TRON:USDT');
  expect((await network.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).sort()).toEqual(
    DEV_RAILS.filter((r) => r.endsWith(':USDT')).sort(),
  );
  await page.getByRole('button', { name: 'Subscribe customer' }).click();
  const row = page.locator('[data-subscription-id]').filter({ hasText: customer });
  await expect(row).toContainText('12.50 USDT on TRON');
  await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'ACTIVE');
  await shot(page, 'subscriptions-dashboard-1280');

  // Its page: no collection attempts (TRON is paid by e-mailed invoice); the portal link is e-mailed.
  await row.getByRole('link', { name: customer }).click();
  await expect(page.getByTestId('subscription-rail')).toHaveText('USDT on TRON');
  await expect(page.getByText('No attempts')).toBeVisible();
  await page.getByRole('button', { name: 'E-mail portal link' }).click();
  await expect(page.getByText(`Portal link e-mailed to ${customer}`)).toBeVisible();
  await page.goto('/dashboard/subscriptions');
  // The outbox sends it through the stack's SMTP server (maildev); the page says so, and the customer has it.
  const mail = page.locator('[data-email-id]').filter({ hasText: customer }).filter({ hasText: 'Portal link' });
  await expect
    .poll(
      async () => {
        await page.reload();
        return mail.getAttribute('data-email-status');
      },
      { timeout: 60_000 }, // the send-emails job's next run
    )
    .toBe('sent');

  // The customer opens the link, sees the open invoice to pay and moves to Ethereum from the next period.
  const portal = await (await browser.newContext({ viewport: { width: 360, height: 800 } })).newPage();
  await portal.goto(await portalLinkMailedTo(request, customer));
  await expect(portal).toHaveURL(`${BASE}/portal`);
  const sub = portal.getByTestId('portal-subscription');
  await expect(sub).toContainText('12.50 USDT on TRON');
  await expect(sub.getByTestId('portal-pay')).toHaveAttribute('href', /\/pay\/inv_[0-9A-Z]+$/);
  await sub.getByLabel('Network for USDT').selectOption('ETHEREUM');
  await sub.getByRole('button', { name: 'Change network' }).click();
  await expect(sub.getByTestId('portal-rail-result')).toHaveText('From the next period you pay on Ethereum.');
  await expect(sub).toContainText('12.50 USDT on ETHEREUM');
  await expect(sub.getByLabel('Network for USDT')).toHaveValue('ETHEREUM');
  await shot(portal, 'portal-change-network-360');
  const pay = await portal.request.get(
    new URL((await sub.getByTestId('portal-pay').getAttribute('href'))!, BASE).toString().replace(/^https?:\/\/[^/]+/, BASE),
  );
  expect(pay.status()).toBe(200);

  // The merchant sees the new network, then cancels at the period end.
  await row.getByRole('link', { name: customer }).click();
  await expect(page.getByTestId('subscription-rail')).toHaveText('USDT on ETHEREUM');
  await page.getByRole('button', { name: 'Cancel at period end' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel at period end' }).click();
  await expect(page.getByTestId('cancels-at-period-end')).toBeVisible();
});
