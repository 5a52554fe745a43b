import { expect, test, type Page } from '@playwright/test';
import { sql } from 'drizzle-orm';
import type { Asset, ChainKey } from '@/lib/config/rails';
import { closeDb, getDb, rowsOf } from '@/lib/db';
import { PAID_STATUSES } from '@/lib/payment-links/view';
import { APP_PORTS } from '../playwright.config';
import { shot } from './support/dashboard';
import { invoiceLinkMailedTo, mailsTo, portalLinkMailedTo } from './support/inbox';
import { signedUpMerchant } from './support/merchant';
import { chainClock, payerWallet, type PayerWallet } from './support/payer-wallet';
import { periodJobs } from './support/period-jobs';

/**
 * The rails the walk runs on: each needs a collector in the e2e stack and a payer wallet in e2e/support/payer-wallet.ts.
 * Not BSC: the walk moves its network's clock months ahead (and back), and BSC is the default rail other specs pay on.
 * TRON's stand-in is rewound the same way (POST /tron/warp of the stack to the wall clock), so the TRON specs after
 * this one pay on time.
 */
const RAILS: { chain: ChainKey; token: Asset }[] = [
  { chain: 'POLYGON', token: 'USDT' },
  { chain: 'TRON', token: 'USDT' },
];

const BASE = `http://127.0.0.1:${APP_PORTS[0]}`;
const PRICE = '10.00';
const PAID = new RegExp(`^(${PAID_STATUSES.join('|')})$`);

test.afterAll(async () => {
  await closeDb();
});

/** The invoices billed for each period of a subscription (by the period start they carry): one each, whoever bills. */
async function invoicesPerPeriod(subscriptionId: string) {
  const rows = rowsOf<{ period: string; n: number }>(
    await (
      await getDb()
    ).execute(sql`select metadata->>'periodStart' as period, count(*)::int as n from invoices
                   where metadata->>'subscriptionId' = ${subscriptionId} group by 1 order by 1`),
  );
  return rows.map((r) => r.n);
}

/** The customer pays the open invoice on `page` from their wallet: the address and amount the checkout shows. */
async function payShownInvoice(page: Page, wallet: PayerWallet) {
  const field = (label: string) => page.getByText(label, { exact: true }).locator('xpath=..').locator('code');
  await wallet.pay((await field('Deposit address').textContent())!, (await field('Amount').textContent())!);
  await expect(page.getByTestId('checkout-status')).toHaveAttribute('data-status', PAID, { timeout: 60_000 });
}

for (const { chain, token } of RAILS) {
  test(`issue 48 walk on ${chain}: plan, subscribe, pay and collect automatically, three pulls, revoke, e-mailed period, portal cancel`, async ({
    page,
    browser,
    request,
  }) => {
    // TRON: ~85 s (3 s blocks, each wallet call and pull waited for; a pull final after solidification), EVM ~40 s.
    test.setTimeout(240_000);
    const rail = `${chain}:${token}`;
    const clock = chainClock(chain);
    const m = await signedUpMerchant(page, request, `Walk Gym ${chain}`, 'correct-horse-battery');
    const jobs = periodJobs(m.tenantId);
    const invoiceOf = async (id: string) => (await m.json(`/v1/invoices/${id}`)).status as string;

    // The merchant creates the plan and subscribes the customer in the dashboard.
    await page.goto('/dashboard/subscriptions');
    await page.getByRole('button', { name: 'New plan' }).click();
    await page.getByLabel('Name').fill('Walk monthly');
    await page.getByLabel('Amount', { exact: true }).fill(PRICE);
    await page.getByLabel('Paid in').selectOption(rail);
    await page.getByLabel('Every', { exact: true }).fill('1');
    await page.getByLabel('Interval', { exact: true }).selectOption('month');
    await page.getByRole('button', { name: 'Create plan' }).click();
    await expect(page.locator('[data-plan-id]').filter({ hasText: 'Walk monthly' })).toContainText(`${PRICE} ${token} on ${chain}`);
    const customer = `walk-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
    await page.getByRole('button', { name: 'New subscription' }).click();
    await page.getByLabel('Customer e-mail').fill(customer);
    await page.getByLabel('Plan', { exact: true }).selectOption({ label: `Walk monthly: ${PRICE} ${token}` });
    await expect(page.getByLabel('Network', { exact: true })).toHaveValue(rail);
    await page.getByRole('button', { name: 'Subscribe customer' }).click();
    const row = page.locator('[data-subscription-id]').filter({ hasText: customer });
    await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'ACTIVE');
    const subId = (await row.getAttribute('data-subscription-id'))!;
    const sub = async () => m.json(`/v1/subscriptions/${subId}`);
    const invoices = [(await sub()).latestInvoiceId as string];

    // The customer opens the first invoice from the e-mail and pays it, allowing the next periods to be collected.
    const wallet = payerWallet(chain, token);
    await wallet.fund('100');
    const payer = await (await browser.newContext({ viewport: { width: 360, height: 800 } })).newPage();
    await payer.goto(await invoiceLinkMailedTo(request, customer, invoices[0]!));
    expect(payer.url()).toBe(`${BASE}/pay/${invoices[0]}`);
    await payer.getByRole('button', { name: 'Pay now and collect automatically' }).click();
    await expect(payer.getByTestId('autocollect-terms')).toContainText(`at most ${PRICE} ${token} every 28 days`);
    await wallet.signShown(payer);
    await payer.getByLabel('The wallet address you signed with').fill(wallet.address);
    await payer.getByRole('button', { name: 'Turn on automatic collection' }).click();
    await expect(payer.getByTestId('autocollect-on')).toContainText(new RegExp(wallet.address, 'i'));
    await payer.reload();
    await payShownInvoice(payer, wallet);
    expect(await wallet.balance()).toBe('90');
    expect(await m.json(`/v1/subscriptions/${subId}/collection`)).toMatchObject({ state: 'authorized' });

    try {
      /** The test clock (and the rail's chain) moved a minute into the next period, whose invoice is billed: once. */
      const nextPeriod = async () => {
        const at = new Date(Date.parse((await sub()).currentPeriodEnd) + 60_000);
        await clock.moveTo(at);
        expect((await jobs.bill(at)).events).toEqual({ 'subscription.renewed': 1 });
        expect((await jobs.bill(at)).events).toEqual({});
        const s = await sub();
        expect(s.latestInvoiceId).not.toBe(invoices.at(-1));
        invoices.push(s.latestInvoiceId);
        return { at, periodStart: s.currentPeriodStart as string, invoiceId: s.latestInvoiceId as string };
      };
      // The worker collects at the wall clock too: whoever runs first pulls; a period has one attempt whatever ran.
      const attemptsOf = async (periodStart: string) =>
        ((await m.json(`/v1/subscriptions/${subId}/collection`)).attempts as { periodStart: string; status: string; reason: string | null }[]).filter(
          (a) => a.periodStart === periodStart,
        );

      // Three periods pass: each is pulled from the wallet exactly once and paid, with no invoice e-mail.
      for (let n = 1; n <= 3; n++) {
        const p = await nextPeriod();
        // Run again until the pull is final (a run of the worker may hold it in flight): the second run finds nothing to do.
        await expect
          .poll(async () => (await jobs.collect(p.at), await attemptsOf(p.periodStart)), { timeout: 30_000 })
          .toEqual([expect.objectContaining({ status: 'confirmed', reason: null })]);
        await jobs.collect(p.at);
        await expect.poll(() => invoiceOf(p.invoiceId), { timeout: 30_000 }).toMatch(PAID);
        expect(await attemptsOf(p.periodStart)).toHaveLength(1);
        expect(await wallet.balance()).toBe(String(90 - 10 * n));
      }

      // The customer revokes the allowance: the next period is not pulled but e-mailed, and collection is off.
      await wallet.revokeAllowance();
      const p4 = await nextPeriod();
      await jobs.collect(p4.at);
      await jobs.collect(p4.at);
      expect(await attemptsOf(p4.periodStart)).toEqual([expect.objectContaining({ status: 'skipped', reason: 'approval revoked' })]);
      expect(await m.json(`/v1/subscriptions/${subId}/collection`)).toMatchObject({ state: 'canceled', cancelReason: 'approval revoked' });
      expect(await wallet.balance()).toBe('60');
      await jobs.sendMail(p4.at);
      const pay4 = await payer.context().newPage();
      await pay4.goto(await invoiceLinkMailedTo(request, customer, p4.invoiceId));
      expect(pay4.url()).toBe(`${BASE}/pay/${p4.invoiceId}`);
      await payShownInvoice(pay4, wallet);
      expect(await wallet.balance()).toBe('50');

      // The merchant's page lists the attempts: three pulls, one skipped.
      await page.goto(`/dashboard/subscriptions/${subId}`);
      await expect(page.locator('[data-attempt-status="confirmed"]')).toHaveCount(3);
      await expect(page.locator('[data-attempt-status="skipped"]')).toHaveCount(1);
      await expect(page.getByTestId('collection-state')).toContainText('approval revoked');
      await shot(page, `subscription-walk-${chain.toLowerCase()}-1280`);

      // The customer cancels in the portal, reached from the link the merchant e-mails.
      await page.getByRole('button', { name: 'E-mail portal link' }).click();
      await expect(page.getByText(`Portal link e-mailed to ${customer}`)).toBeVisible();
      await jobs.sendMail(p4.at);
      const portal = await payer.context().newPage();
      await portal.goto(await portalLinkMailedTo(request, customer));
      await expect(portal).toHaveURL(`${BASE}/portal`);
      const entry = portal.getByTestId('portal-subscription');
      await expect(entry.getByTestId('portal-autocollect')).toHaveAttribute('data-state', 'off');
      await entry.getByTestId('portal-cancel').click();
      await expect(entry.getByTestId('portal-cancel-scheduled')).toBeVisible();
      expect(await sub()).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });

      // At the period's end it ends: no fifth invoice; each period had exactly one, and only the fourth was e-mailed.
      const end = new Date(Date.parse((await sub()).currentPeriodEnd) + 60_000);
      expect((await jobs.bill(end)).events).toEqual({ 'subscription.canceled': 1 });
      expect(await sub()).toMatchObject({ status: 'canceled' });
      expect(await invoicesPerPeriod(subId)).toEqual([1, 1, 1, 1, 1]);
      const mails = await mailsTo(request, customer);
      expect(invoices.map((id) => mails.filter((x) => x.text.includes(`/pay/${id}?claim=`)).length)).toEqual([1, 0, 0, 0, 1]);
      // The customer has a receipt for every period, pulled or paid by hand, and the e-mail that it ended.
      await expect
        .poll(async () => {
          await jobs.sendMail(end);
          const inbox = await mailsTo(request, customer);
          return {
            receipts: invoices.map((id) => inbox.filter((x) => x.subject.startsWith('Receipt from') && x.text.includes(`(${id})`)).length),
            ended: inbox.filter((x) => x.text.includes('ended at the end of its period')).length,
          };
        })
        .toEqual({ receipts: [1, 1, 1, 1, 1], ended: 1 });
    } finally {
      await clock.restore();
    }
  });
}
