import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectionPulls, invoices, subscriptionCollections, subscriptions, tenants } from '@/db/schema';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import { withUsdcRails } from '@/lib/testing/usdc-rails';
import { runBilling } from '@/lib/subscriptions/run-billing';
import { changeRailFromPortal } from './change-rail-from-portal';
import { portalNetworks } from './portal-networks';
import { portalPayLinks } from './portal-pay-links';
import { portalSession } from './portal-session';
import { portalSubscriptions } from './portal-subscriptions';
import { redeemPortalLink } from './redeem-portal-link';

/** Issue 48: the portal's network change (from the next period) and its pay link for the open invoice. */
let t: Awaited<ReturnType<typeof createTestTenant>>;
let other: Awaited<ReturnType<typeof createTestTenant>>;

async function subscribe(tenant: typeof t, customerEmail: string, token = 'USDT') {
  const plan = await call('POST', '/v1/plans', { key: tenant.test, body: { name: 'Pro monthly', amount: '29.00', token, interval: 'month' } });
  expect(plan.status, plan.text).toBe(201);
  const res = await call('POST', '/v1/subscriptions', { key: tenant.test, body: { planId: plan.body.id, customerEmail } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; latestInvoiceId: string; currentPeriodEnd: string };
}
async function session(tenant: typeof t, customerEmail: string, now = new Date()) {
  const res = await call('POST', '/v1/portal-sessions', { key: tenant.test, body: { customerEmail } });
  expect(res.status, res.text).toBe(201);
  const opened = await redeemPortalLink(tenant.db, (res.body.url as string).split('/portal/')[1]!, now);
  return opened!.secret;
}
const row = async (id: string) => (await t.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;

// Test mode's rails here: BSC USDT and USDC, Ethereum USDC (no chain needed), TRON USDT on the stand-in.
withUsdcRails();
let tron: TronRail;
afterAll(async () => {
  await tron.stop();
});

beforeAll(async () => {
  tron = await startTronRail();
  t = await createTestTenant();
  other = await createTestTenant();
});

describe('changing the network from the portal', () => {
  it("applies from the next period: this period's invoice stays on BSC", async () => {
    const sub = await subscribe(t, 'ann@example.com');
    const secret = await session(t, 'Ann@Example.com');
    const view = await changeRailFromPortal(t.db, secret, sub.id, 'TRON');
    expect(view).toMatchObject({ id: sub.id, chain: 'TRON', token: 'USDT', latestInvoiceId: sub.latestInvoiceId });
    const [current] = await t.db.select().from(invoices).where(eq(invoices.id, sub.latestInvoiceId));
    expect(current).toMatchObject({ chain: 'BSC', token: 'USDT', status: 'PENDING' });

    expect((await row(sub.id)).chain).toBe('TRON');
  });

  it("a trialing subscription's first invoice is opened on the new network when the trial ends", async () => {
    const plan = await call('POST', '/v1/plans', { key: t.test, body: { name: 'Trial', amount: '9.00', interval: 'month', trialDays: 3 } });
    const sub = (await call('POST', '/v1/subscriptions', { key: t.test, body: { planId: plan.body.id, customerEmail: 'tia@example.com' } })).body;
    expect(sub).toMatchObject({ status: 'trialing', latestInvoiceId: null });
    const secret = await session(t, 'tia@example.com');
    await changeRailFromPortal(t.db, secret, sub.id, 'TRON');
    await runBilling(t.db, { now: new Date(new Date(sub.currentPeriodEnd).getTime() + 60_000), tenantId: t.tenant.id });
    const after = (await call('GET', `/v1/subscriptions/${sub.id}`, { key: t.test })).body;
    expect(after).toMatchObject({ status: 'active', chain: 'TRON' });
    const [first] = await t.db.select().from(invoices).where(eq(invoices.id, after.latestInvoiceId));
    expect(first).toMatchObject({ chain: 'TRON', token: 'USDT' });
    expect(Number(first!.amountExpected)).toBe(9);
    expect(first!.depositAddress).toMatch(/^41[0-9a-f]{40}$/); // a TRON account, stored as its 41… hex
  });

  it("refuses another customer's or another tenant's subscription as not found, and changes nothing", async () => {
    const ann = await subscribe(t, 'ann2@example.com');
    const bob = await subscribe(t, 'bob2@example.com');
    const theirs = await subscribe(other, 'ann2@example.com');
    const secret = await session(t, 'ann2@example.com');
    await expect(changeRailFromPortal(t.db, secret, bob.id, 'TRON')).rejects.toMatchObject({ code: 'not_found' });
    await expect(changeRailFromPortal(t.db, secret, theirs.id, 'TRON')).rejects.toMatchObject({ code: 'not_found' });
    await expect(changeRailFromPortal(t.db, secret, 'sub_nope', 'TRON')).rejects.toMatchObject({ code: 'not_found' });
    expect((await row(bob.id)).chain).toBe('BSC');
    expect((await other.db.select().from(subscriptions).where(eq(subscriptions.id, theirs.id)))[0]!.chain).toBe('BSC');
    expect((await row(ann.id)).chain).toBe('BSC');
  });

  it('refuses without a valid session (expired or none)', async () => {
    const sub = await subscribe(t, 'cid@example.com');
    const opened = new Date();
    const secret = await session(t, 'cid@example.com', opened);
    await expect(changeRailFromPortal(t.db, secret, sub.id, 'TRON', new Date(opened.getTime() + 31 * 60_000))).rejects.toMatchObject({
      code: 'forbidden',
    });
    await expect(changeRailFromPortal(t.db, undefined, sub.id, 'TRON')).rejects.toMatchObject({ code: 'forbidden' });
    expect((await row(sub.id)).chain).toBe('BSC');
  });

  it("refuses a network the merchant does not accept, one that is not offered, and another token's", async () => {
    const sub = await subscribe(t, 'dee@example.com');
    const usdc = await subscribe(t, 'dee@example.com', 'USDC');
    const secret = await session(t, 'dee@example.com');
    await expect(changeRailFromPortal(t.db, secret, sub.id, 'DOGE')).rejects.toMatchObject({ code: 'validation_failed' });
    // TRON has no USDC here: not a rail of the gateway.
    await expect(changeRailFromPortal(t.db, secret, usdc.id, 'TRON')).rejects.toMatchObject({ code: 'validation_failed' });
    const mine = await createTestTenant();
    // This merchant accepts BSC USDT (always) and BSC USDC only: neither TRON USDT nor Ethereum USDC.
    await mine.db
      .update(tenants)
      .set({ rails: ['BSC:USDC'] })
      .where(eq(tenants.id, mine.tenant.id));
    const s2 = await subscribe(mine, 'dee@example.com');
    const s3 = await subscribe(mine, 'dee@example.com', 'USDC');
    const secret2 = await session(mine, 'dee@example.com');
    await expect(changeRailFromPortal(mine.db, secret2, s2.id, 'TRON')).rejects.toMatchObject({
      code: 'validation_failed',
      details: [{ path: 'chain' }],
    });
    await expect(changeRailFromPortal(mine.db, secret2, s3.id, 'ETHEREUM')).rejects.toMatchObject({ code: 'validation_failed' });
    // The picker offers exactly the accepted rails.
    expect(await portalNetworks(mine.db, (await portalSession(mine.db, secret2))!)).toEqual({ USDT: ['BSC'], USDC: ['BSC'] });
    // Turned on, the same change goes through.
    await mine.db
      .update(tenants)
      .set({ rails: ['BSC:USDC', 'ETHEREUM:USDC'] })
      .where(eq(tenants.id, mine.tenant.id));
    expect(await changeRailFromPortal(mine.db, secret2, s3.id, 'ETHEREUM')).toMatchObject({ chain: 'ETHEREUM', token: 'USDC' });
    expect((await mine.db.select().from(subscriptions).where(eq(subscriptions.id, s2.id)))[0]!.chain).toBe('BSC');
  });

  it('refuses a canceled subscription, and one with automatic collection on or a pull in flight', async () => {
    const sub = await subscribe(t, 'eve@example.com');
    const secret = await session(t, 'eve@example.com');
    await t.db.insert(subscriptionCollections).values({
      subscriptionId: sub.id,
      chainId: 97,
      payer: '0x'.padEnd(42, '1'),
      permissionId: '0x'.padEnd(66, '2'),
      maxPerPeriod: '29',
      periodSeconds: 2_419_200,
      startsAt: new Date(),
    });
    await expect(changeRailFromPortal(t.db, secret, sub.id, 'TRON')).rejects.toMatchObject({ code: 'invalid_state' });
    await t.db.update(subscriptionCollections).set({ status: 'canceled' }).where(eq(subscriptionCollections.subscriptionId, sub.id));
    const [inv] = await t.db.select().from(invoices).where(eq(invoices.id, sub.latestInvoiceId));
    await t.db.insert(collectionPulls).values({
      id: `ctx_${Date.now()}`,
      subscriptionId: sub.id,
      periodStart: new Date(),
      invoiceId: inv!.id,
      status: 'signed',
      amount: '29',
      depositAddress: inv!.depositAddress.toLowerCase(),
      chainId: 97,
    });
    await expect(changeRailFromPortal(t.db, secret, sub.id, 'TRON')).rejects.toMatchObject({ code: 'invalid_state' });
    expect((await row(sub.id)).chain).toBe('BSC');

    const gone = await subscribe(t, 'eve@example.com');
    await call('POST', `/v1/subscriptions/${gone.id}/cancel`, { key: t.test, body: { atPeriodEnd: false } });
    await expect(changeRailFromPortal(t.db, secret, gone.id, 'TRON')).rejects.toMatchObject({ code: 'invalid_state' });
  });
});

describe("the portal's pay link", () => {
  it('is the bare checkout of the latest invoice while unpaid, and gone once paid or expired', async () => {
    const sub = await subscribe(t, 'fay@example.com');
    const secret = await session(t, 'fay@example.com');
    const subs = await portalSubscriptions(t.db, (await portalSession(t.db, secret))!);
    const links = await portalPayLinks(t.db, subs);
    expect(links.get(sub.id)).toMatch(new RegExp(`/pay/${sub.latestInvoiceId}$`));
    expect(links.get(sub.id)).not.toContain('claim');
    const [inv] = await t.db.select().from(invoices).where(eq(invoices.id, sub.latestInvoiceId));
    expect((await portalPayLinks(t.db, subs, new Date(inv!.expiresAt.getTime() + 1))).has(sub.id)).toBe(false);
    await t.db.update(invoices).set({ status: 'CONFIRMED' }).where(eq(invoices.id, sub.latestInvoiceId));
    expect((await portalPayLinks(t.db, subs)).has(sub.id)).toBe(false);
  });
});
