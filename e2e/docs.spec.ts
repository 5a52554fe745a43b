import { expect, test } from '@playwright/test';

test('/docs renders the OpenAPI document with Scalar, bundled locally, webhooks included', async ({ page }) => {
  const offsite: string[] = [];
  const problems: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (!['127.0.0.1', 'localhost'].includes(url.hostname) && !['data:', 'blob:'].includes(url.protocol)) offsite.push(r.url());
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));

  await page.goto('/docs');
  await expect(page.getByRole('heading', { name: 'USDT BEP-20 Payment Gateway API' })).toBeVisible({ timeout: 30_000 });
  // Operations and the webhooks section (OpenAPI `webhooks`) are listed.
  for (const summary of ['Create an API key', 'Create an invoice']) await expect(page.getByText(summary).first()).toBeAttached();
  for (const event of ['invoice.paid_out', 'withdrawal.completed', 'order.paid', 'webhook.test']) {
    await expect(page.getByText(event, { exact: true }).first()).toBeAttached();
  }
  await page.screenshot({ path: 'test-results/screenshots/docs.png', fullPage: false });
  expect(offsite, 'no CDN or third-party requests').toEqual([]);
  expect(problems).toEqual([]);

  const doc = await (await page.request.get('/v1/openapi.json')).json();
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.paths['/v1/api-keys'].post.requestBody).toBeTruthy();
  expect(Object.keys(doc.webhooks)).toContain('invoice.paid_out');
});
