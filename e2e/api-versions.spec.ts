import { expect, test } from '@playwright/test';
import { eq, sql } from 'drizzle-orm';
import { users } from '@/db/schema';
import { closeDb, getDb } from '@/lib/db';
import { APP_PORTS } from '../playwright.config';
import { shot, signUpViaUi, uniqueEmail } from './support/dashboard';
import { merchantKey } from './support/merchant';

const BASE = `http://127.0.0.1:${APP_PORTS[0]}`;
test.afterAll(async () => {
  await closeDb();
});

/*
 * Dated API versions in the dashboard (issue 42 §3): a tenant from before versions is on 2026-11-01; the owner
 * sees its version and what the latest changes, upgrades it, and the API and the activity log say so.
 */
test('the owner sees the account on 2026-11-01 with what 2026-12-01 changes, upgrades it, and the change is recorded', async ({ page, request }) => {
  test.setTimeout(120_000);
  const email = uniqueEmail('versions');
  await signUpViaUi(page, { business: 'Versions Ltd', email, password: 'correct-horse-battery' });
  // Pinned as migration 0047 pinned every tenant from before versions.
  const db = await getDb();
  const [u] = await db.select().from(users).where(eq(users.email, email));
  await db.execute(sql`update tenants set api_version = '2026-11-01' where id = ${u!.tenantId}`);
  const auth = { authorization: `Bearer ${await merchantKey(email)}` };

  const before = await request.get(`${BASE}/v1/tenants/me`, { headers: auth });
  expect(before.headers()['gateway-version']).toBe('2026-11-01');

  await page.goto('/dashboard/settings');
  const panel = page.getByTestId('api-version-panel');
  await expect(panel.getByTestId('api-version')).toHaveText('2026-11-01');
  await expect(panel).toContainText('Upgrading to 2026-12-01 changes:');
  await expect(panel).toContainText('held_payment.detected');
  await shot(page, 'settings-api-version');
  await panel.getByRole('button', { name: 'Upgrade to 2026-12-01' }).click();
  const confirm = page.getByRole('dialog', { name: 'Upgrade the API version to 2026-12-01?' });
  await expect(confirm).toContainText('cannot go back');
  await confirm.getByRole('button', { name: 'Upgrade' }).click();
  await expect(page.locator('[data-toast]').filter({ hasText: 'API version is now 2026-12-01' })).toBeVisible();
  await expect(panel.getByTestId('api-version')).toHaveText('2026-12-01');
  await expect(panel).toContainText('(latest)');
  await expect(panel.getByRole('button', { name: /Upgrade/ })).toHaveCount(0);

  const after = await request.get(`${BASE}/v1/tenants/me`, { headers: auth });
  expect(after.headers()['gateway-version']).toBe('2026-12-01');
  expect(((await after.json()) as { apiVersion: string }).apiVersion).toBe('2026-12-01');

  await page.goto('/dashboard/settings/activity');
  await expect(page.locator('[data-audit-action="tenant.api_version_upgraded"]')).toHaveCount(1);

  // Webhook endpoints show the version their events are rendered in.
  const ep = await request.post(`${BASE}/v1/webhooks/endpoints`, {
    headers: { ...auth, 'Gateway-Version': '2026-11-01' },
    data: { url: 'http://127.0.0.1:9/hook', eventsSubscribed: ['mismatched_payment.detected'] },
  });
  expect(ep.status(), await ep.text()).toBe(201);
  await page.goto('/dashboard/webhooks');
  await expect(page.getByTestId('endpoint-api-version')).toHaveText('API version 2026-11-01');
});
