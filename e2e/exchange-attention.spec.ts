import { expect, test } from '@playwright/test';
import { and, eq } from 'drizzle-orm';
import { auditLog, exchangeOrders, users } from '@/db/schema';
import { createApiKey } from '@/lib/api-keys/create-api-key';
import { closeDb, getDb } from '@/lib/db';
import { APP_PORTS } from '../playwright.config';
import { shot, signUpViaUi, uniqueEmail } from './support/dashboard';
import { EXCHANGE_PORT } from './support/stack-env';

const BASE = `http://127.0.0.1:${APP_PORTS[0]}`;
const PASSWORD = 'correct-horse-battery';
const BTC_REFUND = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

test.afterAll(async () => {
  await closeDb();
});

test('a short pay-in turns EMERGENCY: the merchant sees what to do on the balance page and requests a refund', async ({ page, request }) => {
  test.setTimeout(180_000);
  const email = uniqueEmail('emergency');
  await signUpViaUi(page, { business: 'Short Pay Ltd', email, password: PASSWORD });
  const db = await getDb();
  const [user] = await db.select().from(users).where(eq(users.email, email));
  const tenantId = user!.tenantId!;
  const { key } = await createApiKey(db, { tenantId, mode: 'test', name: 'e2e', scopes: ['admin'] });

  // A BTC pay-in invoice; the customer sends the exchange half of what was agreed.
  const created = await request.post(`${BASE}/v1/invoices`, {
    headers: { authorization: `Bearer ${key}` },
    data: { amount: '50.00', payinCurrency: 'BTC' },
  });
  expect(created.status()).toBe(201);
  const invoice = (await created.json()) as { id: string; payinAmount: string };
  const [order] = await db.select().from(exchangeOrders).where(eq(exchangeOrders.invoiceId, invoice.id));
  const short = String(Number(invoice.payinAmount) / 2);
  const deposited = await request.post(`http://127.0.0.1:${EXCHANGE_PORT}/control/orders/${order!.exchangeId}/deposit`, { data: { amount: short } });
  expect((await deposited.json()).status).toBe('EMERGENCY');
  // A pay-in waiting for its customer is polled every 10 min; make it due now, as that time passing would.
  await db.update(exchangeOrders).set({ nextCheckAt: new Date() }).where(eq(exchangeOrders.id, order!.id));

  // The tracker records EMERGENCY; the balance page shows the order, why, and what to do.
  const card = page.locator(`[data-exchange-order="${order!.id}"]`);
  await expect(async () => {
    await page.goto('/dashboard/balance');
    await expect(card.locator('[data-status="EMERGENCY"]')).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
  await expect(card).toContainText('less than the agreed amount arrived');
  await expect(card).toContainText("A refund goes back to the address you give (usually the customer's)");
  await expect(card.getByRole('link', { name: invoice.id })).toBeVisible();
  await shot(page, 'exchange-emergency');

  // A refund needs an address; with one, the exchange takes the decision.
  await card.getByLabel('Refund to an address').check();
  await card.getByRole('button', { name: 'Request the refund' }).click();
  await expect(card).toContainText('is required for a refund');
  await card.getByLabel('Refund address (BTC)').fill(BTC_REFUND);
  await card.getByRole('button', { name: 'Request the refund' }).click();
  await expect(page.locator('[data-toast]').filter({ hasText: 'Refund requested at the exchange' })).toBeVisible();
  await expect(card.getByTestId('emergency-form')).toHaveCount(0);

  const audit = await db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.tenantId, tenantId), eq(auditLog.action, 'exchange_order.emergency_resolved')));
  expect(audit).toHaveLength(1);
  expect(JSON.stringify(audit[0]!.after)).toContain(BTC_REFUND);
  expect(JSON.stringify(audit[0])).not.toContain(order!.token ?? 'no token stored');
});
