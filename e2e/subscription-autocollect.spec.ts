import { expect, test } from '@playwright/test';
import { and, eq } from 'drizzle-orm';
import { emails } from '@/db/schema';
import { closeDb, getDb } from '@/lib/db';
import { APP_PORTS } from '../playwright.config';
import { shot } from './support/dashboard';
import { evmPayerWallet, shownEvmTerms } from './support/evm-wallet';
import { signedUpMerchant } from './support/merchant';

const BASE = `http://127.0.0.1:${APP_PORTS[0]}`;

test.afterAll(async () => {
  await closeDb();
});

/** The link the period's invoice e-mail carries (its claim token), pointed at this run's app. */
async function invoiceEmailLink(invoiceId: string) {
  const db = await getDb();
  await expect
    .poll(
      async () =>
        (
          await db
            .select()
            .from(emails)
            .where(and(eq(emails.kind, 'invoice'), eq(emails.subjectId, invoiceId)))
        ).length,
    )
    .toBe(1);
  const [mail] = await db
    .select()
    .from(emails)
    .where(and(eq(emails.kind, 'invoice'), eq(emails.subjectId, invoiceId)));
  return mail!.data.payUrl!.replace(/^https?:\/\/[^/]+/, BASE);
}

test('the payer turns on automatic collection at the checkout (signed with their wallet), then off in the portal', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const m = await signedUpMerchant(page, request, 'Autocollect Gym', 'correct-horse-battery');
  const plan = await m.post('/v1/plans', { name: 'Gym monthly', amount: '10.00', interval: 'month' });
  const customerEmail = `pat-${Date.now()}@example.com`;
  const sub = await m.post('/v1/subscriptions', { planId: plan.id, customerEmail });
  expect((await m.json(`/v1/subscriptions/${sub.id}/collection`)).state).toBe('not_set_up');

  // The payer opens the link of their invoice e-mail: the token moves to a cookie, the page offers both ways to pay.
  const payer = await (await browser.newContext({ viewport: { width: 360, height: 800 } })).newPage();
  await payer.goto(await invoiceEmailLink(sub.latestInvoiceId));
  expect(payer.url()).toBe(`${BASE}/pay/${sub.latestInvoiceId}`);
  await expect(payer.getByRole('button', { name: 'Pay now', exact: true })).toBeVisible();
  await payer.getByRole('button', { name: 'Pay now and collect automatically' }).click();
  await expect(payer.getByTestId('autocollect-terms')).toContainText(
    "You allow Autocollect Gym to collect at most 10.00 USDT every 28 days into this gateway's addresses",
  );
  await expect(payer.getByTestId('autocollect-terms')).toContainText('You can stop it any time by revoking the allowance or in the customer portal.');

  // At 360 px the long hex values wrap inside the page: nothing scrolls sideways.
  const overflow = (p: typeof payer) => p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(await overflow(payer)).toBeLessThanOrEqual(0);
  await shot(payer, 'subscription-autocollect-checkout-360');

  // What the page says to sign, as a wallet would read it.
  const { spender, collector, id, authToken, cap, period, start, amount } = await shownEvmTerms(payer);
  const shown = await m.json(`/v1/subscriptions/${sub.id}/collection`);
  expect({ spender, collector, id, authToken, cap, period, start }).toEqual({
    spender: shown.approve.spender,
    collector: shown.collectorAddress,
    id: shown.authorize.subscriptionId,
    authToken: shown.authorize.token,
    cap: shown.authorize.maxPerPeriod,
    period: shown.authorize.periodSeconds,
    start: shown.authorize.start,
  });
  expect(amount).toBe(BigInt(shown.approve.amountPerPeriod) * 12n);

  // Submitting a wallet that signed nothing is refused, with what is missing.
  const wallet = evmPayerWallet('BSC', 'USDT');
  await payer.getByLabel('The wallet address you signed with').fill(wallet.address);
  await payer.getByRole('button', { name: 'Turn on automatic collection' }).click();
  await expect(payer.getByTestId('autocollect-error')).toContainText('has not authorized the collector');

  // The payer's wallet (viem on the e2e anvil) signs exactly what was shown: approve, then authorize.
  await wallet.fund('100');
  await wallet.signShown(payer);
  await payer.getByRole('button', { name: 'Turn on automatic collection' }).click();
  await expect(payer.getByTestId('autocollect-on')).toContainText(wallet.address.toLowerCase());
  expect(await m.json(`/v1/subscriptions/${sub.id}/collection`)).toMatchObject({
    state: 'authorized',
    payer: wallet.address.toLowerCase(),
    allowance: '120',
    balance: '100',
  });
  // This period is still paid now: the page keeps its payment details.
  await payer.reload();
  await expect(payer.getByTestId('autocollect-on')).toBeVisible();
  await expect(payer.getByTestId('qr')).toBeVisible();

  // The customer portal shows it on and turns it off; the API then says canceled.
  const { url } = await m.post('/v1/portal-sessions', { customerEmail });
  const portal = await (await browser.newContext({ viewport: { width: 360, height: 800 } })).newPage();
  await portal.goto(new URL(url as string, BASE).toString().replace(/^https?:\/\/[^/]+/, BASE));
  const row = portal.getByTestId('portal-subscription');
  await expect(row.getByTestId('portal-autocollect')).toHaveAttribute('data-state', 'on');
  await expect(row.getByTestId('portal-autocollect')).toContainText(wallet.address.toLowerCase());
  await row.getByRole('button', { name: 'Turn off automatic collection' }).click();
  await expect(row.getByTestId('portal-autocollect')).toHaveAttribute('data-state', 'off');
  await expect(row.getByTestId('portal-revoke-help')).toContainText(`revoke(${id})`);
  await expect(row.getByTestId('portal-revoke-help')).toContainText(`approve(${collector}, 0)`);
  expect(await m.json(`/v1/subscriptions/${sub.id}/collection`)).toMatchObject({ state: 'canceled', cancelReason: 'turned off by the customer' });
  expect(await overflow(portal)).toBeLessThanOrEqual(0);
  await shot(portal, 'subscription-autocollect-portal-360');
  // Turning it back on is the checkout's own set-up, in the portal.
  await row.locator('summary', { hasText: 'Turn on automatic collection' }).click();
  await expect(row.getByTestId('autocollect-terms')).toContainText('at most 10.00 USDT every 28 days');
});
