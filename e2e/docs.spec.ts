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
  await expect(page.getByRole('heading', { name: 'Stablecoin Payment Gateway API' })).toHaveCount(1, { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Stablecoin Payment Gateway API' })).toBeVisible();
  // Operations by tag, and the webhooks section (the document's `webhooks`, one entry per event type).
  for (const summary of ['Create an API key', 'Revoke a key at once'])
    await expect(page.getByRole('button', { name: new RegExp(`^${summary}`) })).toBeVisible();
  const events = page.getByRole('region', { name: /^Webhook events/ });
  await events.getByRole('button', { name: 'Show all Webhook events endpoints' }).click();
  for (const event of ['invoice.created', 'invoice.paid_out', 'withdrawal.completed', 'order.paid', 'webhook.test']) {
    await expect(events.getByText(event, { exact: true }).first()).toBeVisible();
  }
  await page.screenshot({ path: 'test-results/screenshots/docs.png', fullPage: false });
  expect(offsite, 'no CDN or third-party requests').toEqual([]);
  expect(problems).toEqual([]);

  const doc = await (await page.request.get('/v1/openapi.json')).json();
  expect(doc.openapi).toBe('3.1.0');
  expect(doc.paths['/v1/api-keys'].post.requestBody).toBeTruthy();
  expect(Object.keys(doc.webhooks)).toContain('invoice.paid_out');
});

test('/docs also renders under the production CSP (no unsafe-eval)', async ({ page }) => {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(e.message));
  // The e2e servers run in test mode, whose policy allows eval for React's dev tooling; production's does not.
  await page.route('**/docs', async (route) => {
    const res = await route.fetch();
    const headers = { ...res.headers(), 'content-security-policy': res.headers()['content-security-policy']!.replace(" 'unsafe-eval'", '') };
    expect(headers['content-security-policy']).not.toContain('unsafe-eval');
    await route.fulfill({ response: res, headers });
  });
  await page.goto('/docs');
  await expect(page.getByRole('heading', { name: 'Stablecoin Payment Gateway API' })).toBeVisible({ timeout: 30_000 });
  await expect(page.getByRole('region', { name: /^Webhook events/ })).toBeAttached();
  expect(problems).toEqual([]);
});
