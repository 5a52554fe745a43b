import { expect, test, type Locator, type Page } from '@playwright/test';
import { eq } from 'drizzle-orm';
import { users, webhookDeliveries } from '@/db/schema';
import { createApiKey } from '@/lib/api-keys/create-api-key';
import { closeDb, getDb } from '@/lib/db';
import { recordAudit } from '@/lib/audit/record-audit';
import { createTenant } from '@/lib/tenants/create-tenant';
import { createUser } from '@/lib/users/create-user';
import { APP_PORTS } from '../playwright.config';
import { shot, signUpViaUi, startReceiver, uniqueEmail } from './support/dashboard';
import { expectTableUnclipped } from './support/page-checks';

const BASE = `http://127.0.0.1:${APP_PORTS[0]}`;
const PASSWORD = 'correct-horse-battery';
const PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 900 };

test.afterAll(async () => {
  await closeDb();
});

/** The page needs no sideways scrolling: wide content scrolls inside its own container. */
async function expectNoSidewaysScroll(page: Page, what: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect.soft(scrollWidth, `${what}: page scrolls sideways at ${innerWidth} px`).toBeLessThanOrEqual(innerWidth);
  // Nor does anything stick out of its card (a link and its Copy button ran past the card's edge).
  const overflowing = await page
    .locator('main section')
    .evaluateAll((cards) =>
      cards.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.querySelector('h2')?.textContent ?? c.textContent?.slice(0, 40)),
    );
  expect.soft(overflowing, `${what}: cards whose content sticks out at ${innerWidth} px`).toEqual([]);
}

/**
 * A table wider than its box says that it scrolls (issue 45: at 360 px the last column was cut with no hint): its
 * scrolling box names a visible hint in aria-describedby. The hint is measured after hydration, hence the poll.
 */
async function expectScrollingTablesHinted(page: Page, what: string) {
  await expect
    .configure({ soft: true })
    .poll(
      () =>
        page.locator('main').evaluate((main) =>
          [...main.querySelectorAll('table')]
            .map((t) => t.parentElement!)
            .filter((box) => box.scrollWidth > box.clientWidth + 1)
            .filter((box) => {
              const hint = box.getAttribute('aria-describedby') && document.getElementById(box.getAttribute('aria-describedby')!);
              return !hint || !hint.checkVisibility();
            })
            .map((box) => box.closest('section')?.querySelector('h2')?.textContent ?? box.textContent?.slice(0, 40)),
        ),
      { message: `${what}: tables that scroll sideways with no hint at ${page.viewportSize()!.width} px`, timeout: 5_000 },
    )
    .toEqual([]);
}

/** Inside the viewport's width and clickable (nothing covers it). */
async function expectReachable(page: Page, control: Locator, what: string) {
  await expect.soft(control, `${what} visible`).toBeVisible({ timeout: 5_000 });
  if (!(await control.isVisible())) return;
  const box = (await control.boundingBox())!;
  expect.soft(box.x >= 0 && box.x + box.width <= page.viewportSize()!.width, `${what} inside the viewport's width`).toBe(true);
  await control.click({ trial: true, timeout: 5_000 }).catch((e: Error) => expect.soft(e.message, `${what} clickable`).toBe(''));
}

/** The menu button opens the navigation and closes it again; a link in it navigates. */
async function expectMenuToggles(page: Page, navName: string) {
  const menu = page.getByRole('button', { name: 'Menu' });
  const nav = page.getByRole('navigation', { name: navName, exact: true });
  await expect(nav).toBeHidden();
  await menu.click();
  await expect(menu).toHaveAttribute('aria-expanded', 'true');
  await expect(nav).toBeVisible();
  await expect(nav).toBeInViewport();
  await menu.click();
  await expect(nav).toBeHidden();
}

/** Both widths: the page fits the phone and both screenshots are kept for looking at. */
async function visitAtBothWidths(
  page: Page,
  path: string,
  name: string,
  ready: (p: Page) => Promise<void>,
  controls: (p: Page) => [string, Locator][],
  opts: { hinted?: boolean } = {},
) {
  await page.setViewportSize(PHONE);
  await page.goto(path);
  await ready(page);
  await expectNoSidewaysScroll(page, path);
  if (opts.hinted) await expectScrollingTablesHinted(page, path);
  for (const [what, c] of controls(page)) await expectReachable(page, c, `${path}: ${what}`);
  await shot(page, `layout-360-${name}`);
  await page.setViewportSize(DESKTOP);
  await expectNoSidewaysScroll(page, `${path} at 1280`);
  await shot(page, `layout-1280-${name}`);
}

/** The sidebar's background reaches the bottom of a page longer than the window. */
async function expectSidebarFullHeight(page: Page) {
  const g = await page.evaluate(() => {
    const aside = document.querySelector('aside')!;
    return { aside: aside.getBoundingClientRect().bottom + window.scrollY, page: document.documentElement.scrollHeight, window: window.innerHeight };
  });
  expect(g.page, 'a page longer than the window').toBeGreaterThan(g.window);
  expect(g.aside, "the sidebar's bottom").toBeGreaterThanOrEqual(g.page - 1);
}

/** An audit row with before and after values as long as a real rails change writes (Settings > Activity, console audit log). */
async function railsChanged(tenantId: string, userId: string, email: string) {
  const rails = ['BSC:USDC', 'ETH:USDC', 'ETH:USDT', 'POLYGON:USDC', 'POLYGON:USDT', 'ARBITRUM:USDC', 'BASE:USDC', 'TRON:USDT'];
  await recordAudit(
    await getDb(),
    { kind: 'user', id: userId, label: email },
    {
      tenantId,
      mode: 'test',
      action: 'tenant.rails_changed',
      target: { type: 'tenant', id: tenantId },
      before: { rails: null },
      after: { rails },
    },
  );
}

async function expectNoOverlap(boxes: Locator) {
  const rects = await boxes.evaluateAll((els) =>
    els.map((el) => {
      const r = el.getBoundingClientRect();
      // The widest content inside: text that overflows its group shows in the neighbour's box.
      const inner = Math.max(r.right, ...[...el.querySelectorAll('label')].map((l) => l.getBoundingClientRect().left + l.scrollWidth));
      return { left: r.left, top: r.top, right: Math.max(r.right, inner), bottom: r.bottom, name: el.querySelector('legend')?.textContent };
    }),
  );
  expect(rects.length).toBeGreaterThan(1);
  for (let i = 0; i < rects.length; i++)
    for (let j = i + 1; j < rects.length; j++) {
      const a = rects[i]!;
      const b = rects[j]!;
      const overlap = a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
      expect(overlap, `${a.name} overlaps ${b.name}`).toBe(false);
    }
}

test('every dashboard page fits a 360 px phone with a menu button; the sidebar is full height; the add-endpoint event groups do not overlap', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const receiver = await startReceiver();
  try {
    const email = uniqueEmail('layout');
    await signUpViaUi(page, { business: 'Layout Check Trading Company', email, password: PASSWORD });
    const db = await getDb();
    const [u] = await db.select().from(users).where(eq(users.email, email));
    const key = await createApiKey(db, { tenantId: u!.tenantId!, mode: 'test', name: 'layout', scopes: ['admin'] });
    const auth = { authorization: `Bearer ${key.key}` };
    await railsChanged(u!.tenantId!, u!.id, email);

    // Data on every page: an endpoint, a paid invoice and an open one, a product, an order, a payment link.
    receiver.state.fail = true;
    const ep = await request.post(`${BASE}/v1/webhooks/endpoints`, {
      headers: auth,
      data: { url: `${receiver.url}/a-rather-long-path/for-the-layout-check`, eventsSubscribed: ['*'] },
    });
    expect(ep.status()).toBe(201);
    const inv = await request.post(`${BASE}/v1/invoices`, {
      headers: auth,
      data: { amount: '1250.50', externalId: 'layout-order-0000000001', description: 'A long description of what was bought' },
    });
    expect(inv.status()).toBe(201);
    const invoice = (await inv.json()) as { id: string };
    expect((await request.post(`${BASE}/v1/test-helpers/invoices/${invoice.id}/pay`, { headers: auth, data: { amount: '1250.50' } })).status()).toBe(
      200,
    );
    expect((await request.post(`${BASE}/v1/invoices`, { headers: auth, data: { amount: '3.00' } })).status()).toBe(201);
    const prod = await request.post(`${BASE}/v1/products`, { headers: auth, data: { name: 'House blend 1 kg, medium roast', price: '12.50' } });
    expect(prod.status()).toBe(201);
    const productId = ((await prod.json()) as { id: string }).id;
    const ord = await request.post(`${BASE}/v1/orders`, {
      headers: auth,
      data: { items: [{ productId, quantity: 2 }], customerEmail: 'a.customer.with.a.long.address@example.com' },
    });
    expect(ord.status()).toBe(201);
    const orderId = ((await ord.json()) as { id: string }).id;
    expect((await request.post(`${BASE}/v1/payment-links`, { headers: auth, data: { name: 'Workshop ticket', amount: '25.00' } })).status()).toBe(
      201,
    );

    const main = (p: Page) => p.locator('main h1').first().waitFor();
    const controls = (p: Page): [string, Locator][] => [
      ['Test mode switch', p.getByRole('switch', { name: 'Test mode' })],
      ['menu button', p.getByRole('button', { name: 'Menu' })],
    ];
    const pages: [string, string][] = [
      ['/dashboard', 'home'],
      ['/dashboard/invoices', 'invoices'],
      [`/dashboard/invoices/${invoice.id}`, 'invoice'],
      ['/dashboard/balance', 'balance'],
      ['/dashboard/api-keys', 'api-keys'],
      ['/dashboard/webhooks', 'webhooks'],
      ['/dashboard/webhooks/deliveries', 'webhook-deliveries'],
      ['/dashboard/products', 'products'],
      ['/dashboard/orders', 'orders'],
      [`/dashboard/orders/${orderId}`, 'order'],
      ['/dashboard/payment-links', 'payment-links'],
      ['/dashboard/subscriptions', 'subscriptions'],
      ['/dashboard/settings', 'settings'],
      ['/dashboard/settings/activity', 'activity'],
    ];
    for (const [path, name] of pages) await visitAtBothWidths(page, path, name, main, controls);

    // The menu opens and closes the navigation at 360 px; a link in it goes to its page and closes it.
    await page.setViewportSize(PHONE);
    await page.goto('/dashboard');
    await expectMenuToggles(page, 'Dashboard');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Dashboard', exact: true }).getByRole('link', { name: 'Settings' }).click();
    await expect(page).toHaveURL(/\/dashboard\/settings$/);
    await expect(page.getByRole('navigation', { name: 'Dashboard', exact: true })).toBeHidden();

    // Settings is longer than the window: the sidebar's background goes all the way down.
    await page.setViewportSize(DESKTOP);
    await expectSidebarFullHeight(page);

    // The add-endpoint dialog's event groups sit side by side without overlapping, at both widths.
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      await page.goto('/dashboard/webhooks');
      await page.getByRole('button', { name: 'Add endpoint' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add webhook endpoint' });
      await expect(dialog).toBeVisible();
      await expectNoOverlap(dialog.locator('fieldset fieldset'));
      // On the phone the dialog keeps a margin from the screen's edges (it ran edge to edge).
      const box = (await dialog.boundingBox())!;
      expect(box.x, 'dialog left margin').toBeGreaterThanOrEqual(8);
      expect(box.x + box.width, 'dialog right margin').toBeLessThanOrEqual(size.width - 8);
      await expectNoSidewaysScroll(page, 'add-endpoint dialog');
      await shot(page, `layout-${size.width}-add-endpoint`);
    }
  } finally {
    await receiver.close();
  }
});

test('every console page fits a 360 px phone with a menu button; dead letters fit at 1280 px; audit before/after columns are readable', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const receiver = await startReceiver();
  try {
    // A dead letter (the shrunk retry schedule runs out in seconds) and an audit row with long before/after values.
    receiver.state.fail = true;
    const email = uniqueEmail('layout-owner');
    await signUpViaUi(page, { business: 'Dead Letter Layout Co', email, password: PASSWORD });
    const db = await getDb();
    const [u] = await db.select().from(users).where(eq(users.email, email));
    const tenantId = u!.tenantId!;
    const key = await createApiKey(db, { tenantId, mode: 'test', name: 'layout', scopes: ['admin'] });
    const auth = { authorization: `Bearer ${key.key}` };
    await railsChanged(tenantId, u!.id, email);
    // An order, for the console's search results (a table of ids, tenants and summaries), of another tenant: its
    // invoice's events never reach this tenant's endpoint, whose only delivery is to be the dead letter below.
    const shop = await createTenant(db, { name: `Console Order Shop ${Date.now()}` });
    const shopAuth = { authorization: `Bearer ${shop.keys.test.key}` };
    const prod = await request.post(`${BASE}/v1/products`, { headers: shopAuth, data: { name: 'Layout check product', price: '4.00' } });
    expect(prod.status()).toBe(201);
    const ord = await request.post(`${BASE}/v1/orders`, {
      headers: shopAuth,
      data: { items: [{ productId: ((await prod.json()) as { id: string }).id, quantity: 1 }], customerEmail: 'console.layout@example.com' },
    });
    expect(ord.status()).toBe(201);
    const orderId = ((await ord.json()) as { id: string }).id;
    const ep = await request.post(`${BASE}/v1/webhooks/endpoints`, {
      headers: auth,
      data: { url: `${receiver.url}/a-rather-long-path/for-the-layout-check`, eventsSubscribed: ['invoice.created'] },
    });
    expect(ep.status()).toBe(201);
    expect((await request.post(`${BASE}/v1/invoices`, { headers: auth, data: { amount: '7.00' } })).status()).toBe(201);
    await expect(async () => {
      const [d] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.tenantId, tenantId));
      expect(d?.status).toBe('DEAD_LETTER');
    }).toPass({ timeout: 90_000 });

    await page.context().clearCookies();
    const support = uniqueEmail('layout-support');
    await createUser(db, { email: support, password: PASSWORD, role: 'support' });
    await page.goto('/sign-in');
    await page.getByLabel('Email').fill(support);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(/\/console$/, { timeout: 30_000 });

    const main = (p: Page) => p.locator('main h1').first().waitFor();
    const controls = (p: Page): [string, Locator][] => [['menu button', p.getByRole('button', { name: 'Menu' })]];
    const pages: [string, string][] = [
      ['/console', 'console-search'],
      [`/console?q=${orderId}`, 'console-search-order'],
      [`/console?q=${tenantId}`, 'console-search-tenant'],
      ['/console/dead-letters', 'console-dead-letters'],
      ['/console/stuck', 'console-stuck'],
      ['/console/mismatched-payments', 'console-held'],
      ['/console/solvency', 'console-solvency'],
      ['/console/tenants', 'console-tenants'],
      [`/console/tenants/${tenantId}`, 'console-tenant'],
      ['/console/audit', 'console-audit'],
    ];
    for (const [path, name] of pages) await visitAtBothWidths(page, path, name, main, controls, { hinted: true });
    // The walk's screenshot of the held payments' empty state read "No held held payments" (issue 45).
    await page.goto('/console/mismatched-payments');
    await expect(page.locator('main h1').first()).toBeVisible();
    await expect(page.getByText(/held held/i)).toHaveCount(0);

    // Stuck work with nothing stuck: a sentence in each card, never a table of headers without rows.
    await page.goto('/console/stuck');
    await expect(page.getByText('No failed or stuck payouts')).toBeVisible();
    await expect(page.locator('main table').filter({ hasNot: page.locator('tbody tr') })).toHaveCount(0);

    await page.setViewportSize(PHONE);
    await page.goto('/console');
    await expectMenuToggles(page, 'Console');
    // Search is what the page is for: its form comes before the wallet and cost cards (it came after both).
    const form = (await page.getByRole('search').boundingBox())!;
    const firstCard = (await page.locator('main section').first().boundingBox())!;
    expect.soft(form.y, 'the search form above the first card').toBeLessThan(firstCard.y);
    // A search's results come right under the form, before the wallet and cost cards.
    await page.goto(`/console?q=${orderId}`);
    const hit = (await page.locator('[data-hit-kind="order"]').boundingBox())!;
    expect.soft(hit.y, 'the results above the wallets').toBeLessThan((await page.getByTestId('gas-wallets').boundingBox())!.y);
    await page.goto('/console');
    // Wallet addresses wrap inside their card at 360 px rather than run past its edge.
    const wallets = page.getByTestId('gas-wallets');
    await expect(wallets.locator('[data-wallet="gas"]').first()).toBeVisible();
    const edge = (await wallets.boundingBox())!;
    for (const a of await wallets.locator('.font-mono').all()) {
      const box = (await a.boundingBox())!;
      expect(box.x + box.width, `address ${await a.textContent()} inside its card`).toBeLessThanOrEqual(edge.x + edge.width + 0.5);
    }

    // At 1280 px the solvency table shows every column, its Addresses link included (it was cut), once a run has lines.
    await page.setViewportSize(DESKTOP);
    await expect
      .poll(
        async () => {
          await page.goto('/console/solvency');
          return page.locator('[data-solvency-line]').count();
        },
        { timeout: 60_000, intervals: [2_000] },
      )
      .toBeGreaterThan(0);
    await expectTableUnclipped(page, page.getByTestId('solvency-table'), { soft: true });
    await shot(page, 'layout-1280-console-solvency-lines');

    // At 1280 px the dead-letter table shows every column without sideways scrolling.
    await page.setViewportSize(DESKTOP);
    await page.goto(`/console/dead-letters?tenantId=${tenantId}`);
    const deadLetters = page.locator('table').filter({ has: page.locator('[data-delivery-id]') });
    await expect(deadLetters.locator('tbody tr')).toHaveCount(1);
    await expectTableUnclipped(page, deadLetters);

    // The audit log's before and after columns get room to be read (they were a few characters wide).
    await page.goto(`/console/audit?tenantId=${tenantId}`);
    const row = page.locator('[data-audit-action="tenant.rails_changed"]');
    await expect(row).toBeVisible();
    const cells = row.locator('td');
    const count = await cells.count();
    for (const i of [count - 2, count - 1]) {
      const box = (await cells.nth(i).boundingBox())!;
      expect(box.width, 'before/after column width').toBeGreaterThanOrEqual(200);
    }
    await expectTableUnclipped(page, page.getByTestId('audit-table'));
  } finally {
    await receiver.close();
  }
});
