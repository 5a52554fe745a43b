import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { emails, portalSessions, subscriptions } from '@/db/schema';
import { renderEmail } from '@/lib/email/templates';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { GET as openLink } from '@/app/portal/[token]/route';
import { cancelFromPortal, portalSubscriptions } from './portal-subscriptions';
import { portalSession } from './portal-session';
import { redeemPortalLink } from './redeem-portal-link';
import { hashPortalSecret, PORTAL_COOKIE } from './portal-token';

/** Issue 48 §1: the customer portal's link, its one-time redemption, its session and its cancel. */
let t: Awaited<ReturnType<typeof createTestTenant>>;
let other: Awaited<ReturnType<typeof createTestTenant>>;
let annSub: string;
let bobSub: string;
let otherTenantSub: string;

const tokenOf = (url: string) => url.split('/portal/')[1]!;
async function link(tenant = t, customerEmail = 'Ann@Example.com', sendEmail = false) {
  const res = await call('POST', '/v1/portal-sessions', { key: tenant.test, body: { customerEmail, sendEmail } });
  expect(res.status, res.text).toBe(201);
  return res.body as { url: string; expiresAt: string };
}
async function subscribe(tenant: typeof t, customerEmail: string) {
  const plan = await call('POST', '/v1/plans', { key: tenant.test, body: { name: 'Pro monthly', amount: '29.00', interval: 'month' } });
  const res = await call('POST', '/v1/subscriptions', { key: tenant.test, body: { planId: plan.body.id, customerEmail } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}
async function sessionSecret(token: string, now = new Date()) {
  const s = await redeemPortalLink(t.db, token, now);
  expect(s).not.toBeNull();
  return s!.secret;
}

beforeAll(async () => {
  t = await createTestTenant();
  other = await createTestTenant();
  annSub = await subscribe(t, 'ann@example.com');
  bobSub = await subscribe(t, 'bob@example.com');
  otherTenantSub = await subscribe(other, 'ann@example.com');
});

describe('POST /v1/portal-sessions', () => {
  it('answers a link and its expiry 15 minutes on; only the hash of its token is stored', async () => {
    const before = Date.now();
    const { url, expiresAt } = await link();
    expect(url).toMatch(/\/portal\/[A-Za-z0-9_-]{43}$/);
    expect(new Date(expiresAt).getTime() - before).toBeGreaterThanOrEqual(15 * 60_000 - 1000);
    expect(new Date(expiresAt).getTime() - before).toBeLessThanOrEqual(15 * 60_000 + 5000);
    const token = tokenOf(url);
    const [row] = await t.db
      .select()
      .from(portalSessions)
      .where(eq(portalSessions.linkTokenHash, hashPortalSecret(token)));
    expect(row).toMatchObject({ tenantId: t.tenant.id, mode: 'test', customerEmail: 'ann@example.com', redeemedAt: null });
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it('e-mails the link with sendEmail, and answers the same for an e-mail that is no customer', async () => {
    const { url } = await link(t, 'nobody@example.com', true);
    const [mail] = await t.db
      .select()
      .from(emails)
      .where(and(eq(emails.tenantId, t.tenant.id), eq(emails.kind, 'portal'), eq(emails.to, 'nobody@example.com')));
    expect(mail!.data.portalUrl).toContain(tokenOf(url));
    const rendered = renderEmail('portal', mail!.data);
    expect(rendered.text).toContain(tokenOf(url));
    expect(rendered.subject).toContain(t.tenant.name);
    // Redeemed, it shows nothing.
    const customer = await portalSession(t.db, await sessionSecret(tokenOf(url)));
    expect(await portalSubscriptions(t.db, customer!)).toEqual([]);
  });

  it('refuses a body without a valid e-mail (400; scopes: lib/api/auth-matrix.test.ts)', async () => {
    const res = await call('POST', '/v1/portal-sessions', { key: t.test, body: { customerEmail: 'not-an-email' } });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: any) => d.path)).toContain('customerEmail');
  });
});

describe('redeeming a link', () => {
  it('works once: a second opening is refused, and the session shows only that customer at that tenant and mode', async () => {
    const token = tokenOf((await link()).url);
    const secret = await sessionSecret(token);
    expect(await redeemPortalLink(t.db, token)).toBeNull();
    const customer = await portalSession(t.db, secret);
    expect(customer).toMatchObject({ tenantId: t.tenant.id, mode: 'test', customerEmail: 'ann@example.com' });
    const ids = (await portalSubscriptions(t.db, customer!)).map((s) => s.id);
    expect(ids).toEqual([annSub]);
    expect(ids).not.toContain(otherTenantSub);
    // Only the session secret's hash is stored.
    const [row] = await t.db
      .select()
      .from(portalSessions)
      .where(eq(portalSessions.linkTokenHash, hashPortalSecret(token)));
    expect(row!.sessionSecretHash).toBe(hashPortalSecret(secret));
    expect(JSON.stringify(row)).not.toContain(secret);
  });

  it('expires: the link after 15 minutes, the session after 30 (injected clock)', async () => {
    const { url, expiresAt } = await link();
    const linkEnd = new Date(expiresAt);
    expect(await redeemPortalLink(t.db, tokenOf(url), new Date(linkEnd.getTime() + 1))).toBeNull();
    const opened = new Date(linkEnd.getTime() - 1000);
    const secret = await sessionSecret(tokenOf(url), opened);
    expect(await portalSession(t.db, secret, new Date(opened.getTime() + 29 * 60_000))).not.toBeNull();
    expect(await portalSession(t.db, secret, new Date(opened.getTime() + 30 * 60_000 + 1))).toBeNull();
    await expect(cancelFromPortal(t.db, secret, annSub, new Date(opened.getTime() + 31 * 60_000))).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('an unknown or malformed token is refused', async () => {
    expect(await redeemPortalLink(t.db, 'A'.repeat(43))).toBeNull();
    expect(await redeemPortalLink(t.db, '../../etc')).toBeNull();
    expect(await portalSession(t.db, undefined)).toBeNull();
  });

  it('GET /portal/<token>: a 303 to /portal with the session in an httpOnly cookie scoped to /portal; a second time, the cookie cleared', async () => {
    const token = tokenOf((await link()).url);
    const open = () => openLink(new Request(`http://localhost/portal/${token}`), { params: Promise.resolve({ token }) });
    const first = await open();
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/portal');
    const cookie = first.headers.get('set-cookie')!;
    expect(cookie).toMatch(new RegExp(`^${PORTAL_COOKIE}=[A-Za-z0-9_-]{43}; Path=/portal; Max-Age=1[0-9]{3}; HttpOnly; SameSite=Lax`));
    expect(cookie).not.toContain(token);
    const second = await open();
    expect(second.status).toBe(303);
    expect(second.headers.get('set-cookie')).toMatch(new RegExp(`^${PORTAL_COOKIE}=; Path=/portal; Max-Age=0`));
  });
});

describe('cancel from the portal', () => {
  it("cancels the customer's own subscription at period end; another customer's or tenant's id is refused", async () => {
    const secret = await sessionSecret(tokenOf((await link()).url));
    await expect(cancelFromPortal(t.db, secret, bobSub)).rejects.toMatchObject({ code: 'not_found' });
    await expect(cancelFromPortal(t.db, secret, otherTenantSub)).rejects.toMatchObject({ code: 'not_found' });
    const bob = await t.db.select().from(subscriptions).where(eq(subscriptions.id, bobSub));
    expect(bob[0]!.cancelAtPeriodEnd).toBe(false);
    const [theirs] = await other.db.select().from(subscriptions).where(eq(subscriptions.id, otherTenantSub));
    expect(theirs!.cancelAtPeriodEnd).toBe(false);
    const view = await cancelFromPortal(t.db, secret, annSub);
    expect(view).toMatchObject({ id: annSub, status: 'active', cancelAtPeriodEnd: true });
  });
});
