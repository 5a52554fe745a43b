import { expect, test } from '@playwright/test';
import { closeDb, getDb } from '@/lib/db';
import { createTestTenant } from '@/lib/testing/fixtures';
import { createUser } from '@/lib/users/create-user';
import { uniqueEmail } from './support/dashboard';

const PASSWORD = 'correct-horse-battery';

// A form submitted before its script runs (slow network, or a dev page that never hydrated) used to
// go out as GET /sign-in?email=...&password=...: into history and server logs. Now it POSTs.
test.describe('auth forms without JavaScript', () => {
  test.use({ javaScriptEnabled: false });
  test.afterAll(async () => {
    await closeDb();
  });

  test('sign-in posts the form, signs in, and no URL carries the credentials', async ({ page }) => {
    const db = await getDb();
    const { tenant } = await createTestTenant();
    const email = uniqueEmail('nojs');
    await createUser(db, { email, password: PASSWORD, role: 'owner', tenantId: tenant.id });
    const urls: string[] = [];
    page.on('request', (r) => urls.push(`${r.method()} ${r.url()}`));

    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'Incorrect email, password or code.' })).toBeVisible();
    await expect(page).toHaveURL(/\/sign-in$/);
    await expect(page.getByLabel('Email')).toHaveValue(email);

    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    expect(urls.filter((u) => u.startsWith('POST ') && u.endsWith('/sign-in'))).toHaveLength(2);
    for (const u of urls) {
      expect(u).not.toContain(PASSWORD);
      expect(u).not.toContain('not-the-password');
      expect(u).not.toContain('password=');
    }
  });

  test('sign-up posts the form and lands on the dashboard', async ({ page }) => {
    await page.goto('/sign-up');
    await page.getByLabel('Business name').fill('No Script Ltd');
    await page.getByLabel('Email').fill(uniqueEmail('nojs-signup'));
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
  });
});
