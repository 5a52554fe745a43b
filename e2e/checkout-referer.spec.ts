import { expect, test, type Page, type Request } from '@playwright/test';
import { closeDb } from '@/lib/db';
import { createTestTenant } from '@/lib/testing/fixtures';
import { APP_PORTS } from '../playwright.config';

const BASE = `http://127.0.0.1:${APP_PORTS[0]}`;
test.afterAll(async () => {
  await closeDb();
});

/** Every request the page makes, with its Referer. */
function watchRequests(page: Page) {
  const seen: { url: string; referer: string }[] = [];
  page.on('request', (r: Request) => seen.push({ url: r.url(), referer: r.headers()['referer'] ?? '' }));
  return seen;
}

test("the payer's claim token leaves the URL at the first request: no later request or Referer carries it; reloads keep the payer's page", async ({
  browser,
  request,
}) => {
  const t = await createTestTenant({ name: 'Referer Shop' });
  const res = await request.post(`${BASE}/v1/invoices`, { headers: { authorization: `Bearer ${t.test}` }, data: { amount: '5.00' } });
  expect(res.status(), await res.text()).toBe(201);
  const inv = (await res.json()) as { id: string; checkoutUrl: string };
  const token = new URL(inv.checkoutUrl, 'http://x').searchParams.get('claim')!;
  expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

  const ctx = await browser.newContext({ baseURL: BASE });
  const page = await ctx.newPage();
  const seen = watchRequests(page);
  const polled = page.waitForResponse((r) => r.url().endsWith(`/api/pay/${inv.id}/status`));
  await page.goto(`/pay/${inv.id}?claim=${token}`);
  expect(page.url()).toBe(`${BASE}/pay/${inv.id}`);
  // The status poll is the payer's (full view) through the cookie alone.
  expect(((await (await polled).json()) as { claimed: boolean }).claimed).toBe(true);
  await page.reload();
  await page.waitForResponse((r) => r.url().endsWith(`/api/pay/${inv.id}/status`));
  expect(seen.length).toBeGreaterThan(3);
  // Only the very first request (the link itself) names the token.
  const later = seen.slice(1);
  expect(later.filter((r) => r.url.includes(token) || r.referer.includes(token))).toEqual([]);
  expect(later.some((r) => r.referer === `${BASE}/pay/${inv.id}`)).toBe(true);
  // A stranger with the bare URL sees the payment, not the payer's page.
  const other = await browser.newContext({ baseURL: BASE });
  const stranger = await other.request.get(`/api/pay/${inv.id}/status`);
  expect(((await stranger.json()) as { claimed: boolean }).claimed).toBe(false);
  await other.close();

  // A refund claim link's secret is its path: the same treatment, the page is /refund-claim.
  const secret = 'R'.repeat(43);
  const linkPage = await ctx.newPage();
  const linkSeen = watchRequests(linkPage);
  await linkPage.goto(`/refund-claim/${secret}`);
  expect(linkPage.url()).toBe(`${BASE}/refund-claim`);
  await expect(linkPage.getByTestId('claim-invalid')).toBeVisible();
  expect(linkSeen.slice(1).filter((r) => r.url.includes(secret) || r.referer.includes(secret))).toEqual([]);
  await ctx.close();
});
