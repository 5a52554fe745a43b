import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { collectionPulls, emails, plans, subscriptions, tenants } from '@/db/schema';
import { verifyCredentials } from '@/lib/auth/verify-credentials';
import { can } from '@/lib/dashboard/permissions';
import { closeDb, getDb, type Db } from '@/lib/db';
import { Decimal } from '@/lib/money';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import { createUser } from '@/lib/users/create-user';
import { listCollectionAttempts } from './collect/list-collection-attempts';

// The session next-auth would read from the cookie, and the header's mode cookie: the test sets whose session and which mode.
const session = vi.hoisted(() => ({ sid: null as string | null, mode: 'test' as 'test' | 'live' }));
vi.mock('@/lib/auth/next-auth', () => ({ auth: async () => (session.sid ? { sid: session.sid } : null), signIn: vi.fn(), signOut: vi.fn() }));
vi.mock('next/headers', () => ({ cookies: async () => ({ get: (name: string) => (name === 'gw_mode' ? { value: session.mode } : undefined) }) }));
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));
const { createPlanAction, createSubscriptionAction, cancelSubscriptionAction, sendPortalLinkAction } =
  await import('@/app/dashboard/subscriptions/actions');

/**
 * Issue 48: the dashboard's subscription forms call the API's lib functions with its zod bodies. Plans are prices (the
 * owner's); subscribing, cancelling and the portal link are a member's daily work. Tenant and mode come from the
 * session and the header's mode, never from the form.
 */
const PASSWORD = 'a-long-enough-password';
let db: Db;
let tron: TronRail;
let t: Awaited<ReturnType<typeof createTestTenant>>;
let other: Awaited<ReturnType<typeof createTestTenant>>;
let n = 0;
const TRON_PLAN = {
  name: 'Tron monthly',
  amount: '12.50',
  chain: 'TRON',
  token: 'USDT',
  interval: 'month',
  intervalCount: 1,
  trialDays: 0,
  graceDays: 2,
};

async function signIn(role: 'owner' | 'member', tenantId: string, mode: 'test' | 'live' = 'test') {
  const u = await createUser(db, { email: `subs-${role}-${process.pid}-${Date.now()}-${++n}@example.com`, password: PASSWORD, role, tenantId });
  const out = await verifyCredentials(db, { email: u.email, password: PASSWORD }, { ip: `10.12.${n}.${n % 250}` });
  if (!out.ok) throw new Error(`sign-in refused: ${out.reason}`);
  session.sid = out.sessionId;
  session.mode = mode;
}
const plansOf = (tenantId: string) => db.select().from(plans).where(eq(plans.tenantId, tenantId));

beforeAll(async () => {
  db = await getDb();
  tron = await startTronRail();
  t = await createTestTenant();
  other = await createTestTenant();
});
afterAll(async () => {
  await tron.stop();
  await closeDb();
});

describe('plans from the dashboard', () => {
  it('a member is refused and nothing is written; the owner creates a plan on TRON and on BSC', async () => {
    expect(can('member', 'plans:manage')).toBe(false);
    await signIn('member', t.tenant.id);
    expect(await createPlanAction(TRON_PLAN)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    expect(await plansOf(t.tenant.id)).toHaveLength(0);

    await signIn('owner', t.tenant.id);
    const onTron = await createPlanAction(TRON_PLAN);
    expect(onTron).toMatchObject({ ok: true, data: { name: 'Tron monthly', amount: '12.50', chain: 'TRON', token: 'USDT', graceDays: 2 } });
    const onBsc = await createPlanAction({ ...TRON_PLAN, name: 'Weekly', chain: 'BSC', interval: 'week', intervalCount: 2, trialDays: 7 });
    expect(onBsc).toMatchObject({ ok: true, data: { chain: 'BSC', interval: 'week', intervalCount: 2, trialDays: 7 } });
    expect((await plansOf(t.tenant.id)).map((p) => p.mode)).toEqual(['test', 'test']);
  });

  it('refuses what the API refuses, field by field: the amount, the interval, a rail turned off in settings', async () => {
    await signIn('owner', t.tenant.id);
    const bad = await createPlanAction({ ...TRON_PLAN, amount: '1.234', interval: 'fortnight', intervalCount: 0 });
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.error.code).toBe('validation_failed');
    expect(bad.error.details!.map((d) => d.path).sort()).toEqual(['amount', 'interval', 'intervalCount']);
    const off = await createTestTenant();
    await db.update(tenants).set({ rails: [] }).where(eq(tenants.id, off.tenant.id));
    await signIn('owner', off.tenant.id);
    expect(await createPlanAction(TRON_PLAN)).toMatchObject({ ok: false, error: { code: 'validation_failed', details: [{ path: 'chain' }] } });
    expect(await plansOf(off.tenant.id)).toHaveLength(0);
  });

  it('"Price in": the token (amount) or a fiat currency (price); a fiat price is refused for USDC, each error on its field', async () => {
    const priced = await createTestTenant();
    await signIn('owner', priced.tenant.id);
    const base = { ...TRON_PLAN, chain: 'BSC', amount: '9.99' };
    const inEur = await createPlanAction({ ...base, name: 'Pro (EUR)', priceIn: 'EUR' });
    expect(inEur).toMatchObject({ ok: true, data: { name: 'Pro (EUR)', amount: null, price: { currency: 'EUR', amount: '9.99' }, token: 'USDT' } });
    const inToken = await createPlanAction({ ...base, name: 'Pro (USDT)', priceIn: 'token' });
    expect(inToken).toMatchObject({ ok: true, data: { amount: '9.99', price: null } });
    // The API lists the fiat plan with its price, as created through it.
    const listed = (await call('GET', '/v1/plans', { key: priced.test })).body.data as { name: string; price: unknown }[];
    expect(listed.find((p) => p.name === 'Pro (EUR)')?.price).toEqual({ currency: 'EUR', amount: '9.99' });

    expect(await createPlanAction({ ...base, priceIn: 'XYZ' })).toMatchObject({
      ok: false,
      error: { code: 'validation_failed', details: [{ path: 'price.currency' }] },
    });
    expect(await createPlanAction({ ...base, priceIn: 'EUR', amount: '1.234' })).toMatchObject({
      ok: false,
      error: { code: 'validation_failed', details: [{ path: 'price.amount' }] },
    });
    // Fiat rates are quoted in USDT: a USDC plan is priced in USDC.
    expect(await createPlanAction({ ...base, chain: 'ETHEREUM', token: 'USDC', priceIn: 'EUR' })).toMatchObject({
      ok: false,
      error: { code: 'validation_failed', details: [{ path: 'price' }] },
    });
    const kept = (await plansOf(priced.tenant.id)).map((p) => [new Decimal(p.amount).toFixed(2), p.priceCurrency]);
    expect(kept).toHaveLength(2);
    expect(kept).toEqual(
      expect.arrayContaining([
        ['9.99', 'EUR'],
        ['9.99', null],
      ]),
    );
  });

  it("writes in the header's mode: a live plan is not a test plan", async () => {
    const live = await createTestTenant();
    await signIn('owner', live.tenant.id, 'live');
    expect(await createPlanAction({ ...TRON_PLAN, chain: 'BSC' })).toMatchObject({ ok: true });
    expect((await plansOf(live.tenant.id)).map((p) => p.mode)).toEqual(['live']);
    expect((await call('GET', '/v1/plans', { key: live.test })).body.data).toEqual([]);
  });
});

describe('subscriptions from the dashboard', () => {
  it("a member subscribes a customer on TRON, cancels at period end then now, and e-mails a portal link; another tenant's ids are refused", async () => {
    expect(can('member', 'subscriptions:manage')).toBe(true);
    const [plan] = (await plansOf(t.tenant.id)).filter((p) => p.chain === 'TRON');
    await signIn('member', t.tenant.id);
    const created = await createSubscriptionAction({ planId: plan!.id, customerEmail: 'ann@example.com', chain: 'TRON' });
    expect(created).toMatchObject({ ok: true, data: { status: 'active', chain: 'TRON', token: 'USDT', amount: '12.50' } });
    const id = created.ok ? created.data.id : '';

    // Another tenant's plan in the body is a bad request; its subscription is not found.
    const theirPlan = await call('POST', '/v1/plans', { key: other.test, body: { name: 'Theirs', amount: '5.00', interval: 'month' } });
    const theirSub = await call('POST', '/v1/subscriptions', {
      key: other.test,
      body: { planId: theirPlan.body.id, customerEmail: 'x@example.com' },
    });
    expect(await createSubscriptionAction({ planId: theirPlan.body.id, customerEmail: 'ann@example.com' })).toMatchObject({
      ok: false,
      error: { code: 'validation_failed', details: [{ path: 'planId' }] },
    });
    expect(await cancelSubscriptionAction(theirSub.body.id, { atPeriodEnd: false })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect((await call('GET', `/v1/subscriptions/${theirSub.body.id}`, { key: other.test })).body.status).toBe('active');
    expect(await createSubscriptionAction({ planId: plan!.id, customerEmail: 'not-an-email' })).toMatchObject({
      ok: false,
      error: { code: 'validation_failed', details: [{ path: 'customerEmail' }] },
    });

    expect(await cancelSubscriptionAction(id, { atPeriodEnd: true })).toMatchObject({
      ok: true,
      data: { status: 'active', cancelAtPeriodEnd: true },
    });
    const sent = await sendPortalLinkAction('ann@example.com');
    expect(sent).toMatchObject({ ok: true });
    // The link is the customer's credential: e-mailed, never answered to the dashboard.
    expect(JSON.stringify(sent)).not.toContain('/portal/');
    const mail = await db
      .select()
      .from(emails)
      .where(and(eq(emails.tenantId, t.tenant.id), eq(emails.kind, 'portal'), eq(emails.to, 'ann@example.com')));
    expect(mail).toHaveLength(1);
    expect(await cancelSubscriptionAction(id, { atPeriodEnd: false })).toMatchObject({ ok: true, data: { status: 'canceled' } });
    expect((await db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!.canceledAt).not.toBeNull();
  });

  it('refuses everything once signed out', async () => {
    session.sid = null;
    expect(await createSubscriptionAction({ planId: 'plan_x', customerEmail: 'a@example.com' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_api_key' },
    });
    expect(await sendPortalLinkAction('a@example.com')).toMatchObject({ ok: false, error: { code: 'invalid_api_key' } });
  });
});

describe('collection attempts for the dashboard', () => {
  it("lists a subscription's attempts, newest period first; another tenant's or mode's subscription is a 404", async () => {
    const plan = await call('POST', '/v1/plans', { key: t.test, body: { name: 'Pulled', amount: '3.00', interval: 'day' } });
    const sub = (await call('POST', '/v1/subscriptions', { key: t.test, body: { planId: plan.body.id, customerEmail: 'p@example.com' } })).body;
    // Each attempt is of its own period's invoice (one attempt an invoice): a second subscription lends the older one's.
    const older = (await call('POST', '/v1/subscriptions', { key: t.test, body: { planId: plan.body.id, customerEmail: 'q@example.com' } })).body;
    const where = { id: sub.id, tenantId: t.tenant.id, mode: 'test' as const };
    expect(await listCollectionAttempts(db, where)).toEqual({ collection: null, attempts: [] });
    const base = { subscriptionId: sub.id, invoiceId: sub.latestInvoiceId, amount: '3', depositAddress: '0x'.padEnd(42, 'a'), chainId: 31337 };
    await db.insert(collectionPulls).values([
      {
        ...base,
        id: `ctx_a${Date.now()}`,
        periodStart: new Date('2026-01-01T00:00:00Z'),
        status: 'skipped',
        reason: 'insufficient balance',
        invoiceId: older.latestInvoiceId,
      },
      {
        ...base,
        id: `ctx_b${Date.now()}`,
        periodStart: new Date('2026-01-02T00:00:00Z'),
        status: 'confirmed',
        txHash: `0x${'c'.repeat(64)}`,
        networkFee: '0.49',
      },
    ]);
    const { attempts } = await listCollectionAttempts(db, where);
    expect(attempts).toMatchObject([
      {
        periodStart: '2026-01-02T00:00:00.000Z',
        status: 'confirmed',
        txHash: `0x${'c'.repeat(64)}`,
        networkFee: '0.49',
        amount: '3.00',
        chainId: 31337,
      },
      { periodStart: '2026-01-01T00:00:00.000Z', status: 'skipped', reason: 'insufficient balance', networkFee: null, txHash: null },
    ]);
    await expect(listCollectionAttempts(db, { ...where, tenantId: other.tenant.id })).rejects.toMatchObject({ code: 'not_found' });
    await expect(listCollectionAttempts(db, { ...where, mode: 'live' })).rejects.toMatchObject({ code: 'not_found' });
  });
});
