import { expect, test } from '@playwright/test';

test('the API reference at /docs lists the key endpoints', async ({ page }) => {
  await page.goto('/docs');
  await expect(page.getByRole('heading', { name: 'API reference' })).toBeVisible();
  const paths = page.getByTestId('endpoint-path');
  for (const p of ['/v1/api-keys', '/v1/api-keys/{id}', '/v1/api-keys/{id}/revoke', '/v1/tenants/me']) {
    await expect(paths.filter({ hasText: new RegExp(`^${p.replace(/[{}]/g, '\\$&')}$`) }).first()).toBeVisible();
  }
  await page.screenshot({ path: 'test-results/screenshots/docs.png', fullPage: false });
  const doc = await (await page.request.get('/v1/openapi.json')).json();
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.paths['/v1/api-keys'].post.requestBody).toBeTruthy();
});
