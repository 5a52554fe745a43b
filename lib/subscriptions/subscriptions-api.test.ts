import { and, asc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { events } from '@/db/schema';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';

/** Issue 48 §1: /v1/plans and /v1/subscriptions through the routes (auth, scopes and isolation: lib/api/auth-matrix.test.ts). */
let t: Awaited<ReturnType<typeof createTestTenant>>;
let plan: any;
const eventsOf = async (subjectId: string) =>
  (
    await t.db
      .select()
      .from(events)
      .where(and(eq(events.tenantId, t.tenant.id), eq(events.subjectId, subjectId)))
      .orderBy(asc(events.id))
  ).map((e) => e.type);

beforeAll(async () => {
  t = await createTestTenant();
  const res = await call('POST', '/v1/plans', {
    key: t.test,
    body: { name: 'Pro monthly', amount: '29.5', interval: 'month', graceDays: 3 },
  });
  expect(res.status, res.text).toBe(201);
  plan = res.body;
});

describe('plans', () => {
  it('are created with defaults, amounts as decimal strings, and nothing internal on the wire', async () => {
    expect(plan).toEqual({
      id: expect.stringMatching(/^plan_/),
      name: 'Pro monthly',
      amount: '29.50',
      price: null,
      chain: 'BSC',
      token: 'USDT',
      interval: 'month',
      intervalCount: 1,
      trialDays: 0,
      graceDays: 3,
      createdAt: expect.any(String),
    });
    expect((await call('GET', `/v1/plans/${plan.id}`, { key: t.test })).body).toEqual(plan);
    const list = await call('GET', '/v1/plans', { key: t.test });
    expect(list.body.data.map((p: any) => p.id)).toContain(plan.id);
    // The other mode does not see it.
    expect((await call('GET', `/v1/plans/${plan.id}`, { key: t.live })).status).toBe(404);
  });

  it('refuse a float-like amount, a third decimal, an unknown interval and a zero count', async () => {
    for (const [body, path] of [
      [{ name: 'x', amount: 29.5, interval: 'month' }, 'amount'],
      [{ name: 'x', amount: '1.001', interval: 'month' }, 'amount'],
      [{ name: 'x', amount: '1.00', interval: 'fortnight' }, 'interval'],
      [{ name: 'x', amount: '1.00', interval: 'day', intervalCount: 0 }, 'intervalCount'],
    ] as const) {
      const res = await call('POST', '/v1/plans', { key: t.test, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.details.map((d: any) => d.path)).toContain(path);
    }
  });
});

describe('subscriptions', () => {
  it("without a trial: active, its first period's invoice created with it, events in order", async () => {
    const res = await call('POST', '/v1/subscriptions', { key: t.test, body: { planId: plan.id, customerEmail: 'ann@example.com' } });
    expect(res.status, res.text).toBe(201);
    const sub = res.body;
    expect(Object.keys(sub).sort()).toEqual(
      [
        'id',
        'planId',
        'customerEmail',
        'chain',
        'token',
        'amount',
        'priceCurrency',
        'status',
        'currentPeriodStart',
        'currentPeriodEnd',
        'cancelAtPeriodEnd',
        'canceledAt',
        'latestInvoiceId',
        'createdAt',
      ].sort(),
    );
    expect(sub).toMatchObject({
      status: 'active',
      chain: 'BSC',
      token: 'USDT',
      amount: '29.50',
      priceCurrency: null,
      cancelAtPeriodEnd: false,
      canceledAt: null,
    });
    const start = new Date(sub.currentPeriodStart);
    const end = new Date(sub.currentPeriodEnd);
    expect(end.getUTCMonth()).toBe((start.getUTCMonth() + 1) % 12);
    const inv = await call('GET', `/v1/invoices/${sub.latestInvoiceId}`, { key: t.test });
    expect(inv.status).toBe(200);
    expect(inv.body).toMatchObject({ amountExpected: '29.50', status: 'PENDING', metadata: { subscriptionId: sub.id } });
    expect(await eventsOf(sub.id)).toEqual(['subscription.created']);
    expect(await eventsOf(sub.latestInvoiceId)).toEqual(['invoice.created']);
    expect((await call('GET', `/v1/subscriptions/${sub.id}`, { key: t.test })).body).toEqual(sub);
  });

  it('with a trial: trialing and no invoice until the trial ends', async () => {
    const trial = await call('POST', '/v1/plans', { key: t.test, body: { name: 'Trial', amount: '5.00', interval: 'week', trialDays: 14 } });
    const res = await call('POST', '/v1/subscriptions', { key: t.test, body: { planId: trial.body.id, customerEmail: 'bo@example.com' } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ status: 'trialing', latestInvoiceId: null });
    expect(Date.parse(res.body.currentPeriodEnd) - Date.parse(res.body.currentPeriodStart)).toBe(14 * 86_400_000);
    const list = await call('GET', `/v1/subscriptions?status=trialing&planId=${trial.body.id}`, { key: t.test });
    expect(list.body.data.map((s: any) => s.id)).toEqual([res.body.id]);
  });

  it('refuses a plan of another tenant or mode as a bad request, and a bad e-mail', async () => {
    const other = await createTestTenant();
    const theirs = await call('POST', '/v1/plans', { key: other.test, body: { name: 'Theirs', amount: '1.00', interval: 'day' } });
    for (const [key, body] of [
      [t.test, { planId: theirs.body.id, customerEmail: 'c@example.com' }],
      [t.live, { planId: plan.id, customerEmail: 'c@example.com' }],
      [t.test, { planId: plan.id, customerEmail: 'not-an-email' }],
    ] as const) {
      const res = await call('POST', '/v1/subscriptions', { key, body });
      expect(res.status, res.text).toBe(400);
    }
  });

  it('cancels at period end, or now with its event', async () => {
    const sub = (await call('POST', '/v1/subscriptions', { key: t.test, body: { planId: plan.id, customerEmail: 'cy@example.com' } })).body;
    const later = await call('POST', `/v1/subscriptions/${sub.id}/cancel`, { key: t.test, body: {} });
    expect(later.status, later.text).toBe(200);
    expect(later.body).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, canceledAt: null });
    const now = await call('POST', `/v1/subscriptions/${sub.id}/cancel`, { key: t.test, body: { atPeriodEnd: false } });
    expect(now.body).toMatchObject({ status: 'canceled', canceledAt: expect.any(String) });
    const again = await call('POST', `/v1/subscriptions/${sub.id}/cancel`, { key: t.test, body: { atPeriodEnd: false } });
    expect(again.body).toEqual(now.body);
    expect(await eventsOf(sub.id)).toEqual(['subscription.created', 'subscription.canceled']);
  });
});
