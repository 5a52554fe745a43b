import { expect, test } from '@playwright/test';
import { closeDb } from '@/lib/db';
import { APP_PORTS } from '../playwright.config';
import { shot, signUpViaUi, uniqueEmail } from './support/dashboard';
import { MAIL_PORTS } from './support/stack-env';
import { merchantKey } from './support/merchant';

const BASE = `http://127.0.0.1:${APP_PORTS[0]}`;

test.afterAll(async () => {
  await closeDb();
});

test('the Subscriptions page lists subscriptions, plans and the e-mails to customers, at 1280 and 360 px', async ({ page, request }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('subs');
  await signUpViaUi(page, { business: 'Gym Partners', email, password: 'correct-horse-battery' });
  const auth = { authorization: `Bearer ${await merchantKey(email)}` };
  const plan = await request.post(`${BASE}/v1/plans`, {
    headers: auth,
    data: { name: 'Monthly gym', amount: '29.00', interval: 'month', graceDays: 3 },
  });
  expect(plan.status(), await plan.text()).toBe(201);
  const planId = (await plan.json()).id;
  const sub = await request.post(`${BASE}/v1/subscriptions`, { headers: auth, data: { planId, customerEmail: 'member.one@example.com' } });
  expect(sub.status(), await sub.text()).toBe(201);
  const { id, latestInvoiceId } = await sub.json();

  await page.goto('/dashboard/subscriptions');
  const row = page.locator(`[data-subscription-id="${id}"]`);
  await expect(row).toContainText('member.one@example.com');
  await expect(row).toContainText('Monthly gym');
  await expect(row).toContainText('29.00 USDT on BSC');
  await expect(row.locator('[data-status]')).toHaveAttribute('data-status', 'ACTIVE');
  await expect(row.getByRole('link', { name: latestInvoiceId })).toHaveAttribute('href', `/dashboard/invoices/${latestInvoiceId}`);
  await expect(page.locator(`[data-plan-id="${planId}"]`)).toContainText('every month');
  // The period's invoice e-mail went through the outbox to the stack's SMTP server (maildev), and the page says so.
  const mail = page.locator('[data-email-id]').filter({ hasText: 'member.one@example.com' });
  await expect(mail).toContainText('Invoice');
  await expect(mail).toContainText(latestInvoiceId);
  await expect
    .poll(async () => {
      await page.reload();
      return mail.getAttribute('data-email-status');
    })
    .toBe('sent');
  await expect(mail).toContainText('Sent');
  const inbox = (await (await request.get(`http://127.0.0.1:${MAIL_PORTS.web}/api/email`)).json()) as { subject: string; text: string }[];
  const delivered = inbox.find((m) => m.text.includes(`/pay/${latestInvoiceId}`));
  expect(delivered?.subject).toBe('Invoice from Gym Partners: 29.00 USDT on BSC');
  await shot(page, 'subscriptions-1280');
  await page.setViewportSize({ width: 360, height: 800 });
  await page.reload();
  await expect(row).toContainText('member.one@example.com');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0); // the tables scroll inside their cards, the page does not
  await shot(page, 'subscriptions-360');
});
