import { and, asc, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { chainTransfers, events, invoices, plans, subscriptionPeriods, subscriptions } from '@/db/schema';
import { getDb, type Db } from '@/lib/db';
import { newId } from '@/lib/ids';
import { applyTransfers } from '@/lib/payments/apply-transfers';
import { createTestTenant } from '@/lib/testing/fixtures';
import { createPlan } from './create-plan';
import { createSubscription } from './create-subscription';
import { openPeriod } from './open-period';
import { addIntervals } from './periods';
import { runBilling } from './run-billing';
import { CreatePlanBody, CreateSubscriptionBody } from './schemas';

/**
 * Issue 48 §1: the period job on a test clock (`now` moved, never slept): one invoice per period, exactly once across
 * concurrent runs (the unique index on subscription and period start is the last word), past_due after the due date,
 * canceled after the grace period, and every change's event in its transaction.
 */
const DAY = 86_400_000;
let t: Awaited<ReturnType<typeof createTestTenant>>;
let db: Db;
const owner = () => ({ tenantId: t.tenant.id, mode: 'test' as const, tenant: { rails: null } });
const at = (base: Date, days: number) => new Date(base.getTime() + days * DAY);

async function subscribe(plan: Parameters<typeof CreatePlanBody.parse>[0], now: Date) {
  const p = await createPlan(db, owner(), CreatePlanBody.parse(plan));
  return createSubscription(db, owner(), CreateSubscriptionBody.parse({ planId: p.id, customerEmail: 'pat@example.com' }), { now });
}

const run = (now: Date) => runBilling(db, { now, tenantId: t.tenant.id });
const row = async (id: string) => (await db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0]!;
const periods = (id: string) =>
  db.select().from(subscriptionPeriods).where(eq(subscriptionPeriods.subscriptionId, id)).orderBy(asc(subscriptionPeriods.periodStart));
const eventTypes = async (id: string) => (await db.select().from(events).where(eq(events.subjectId, id)).orderBy(asc(events.id))).map((e) => e.type);

/** The invoice paid in full as the watcher records a payment seen on chain (its transfer row, then applyTransfers). */
async function pay(invoiceId: string) {
  const [inv] = await db.select().from(invoices).where(eq(invoices.id, invoiceId));
  await db.transaction(async (tx) => {
    const [transfer] = await tx
      .insert(chainTransfers)
      .values({
        id: newId('chainTx'),
        mode: inv!.mode,
        chainId: inv!.chainId,
        txHash: `0x${newId('chainTx').slice(-26).toLowerCase().padStart(64, '0')}`,
        logIndex: 0,
        blockNumber: 1,
        blockHash: `0x${'ab'.repeat(32)}`,
        blockTime: new Date(),
        fromAddress: `0x${'78'.repeat(20)}`,
        toAddress: inv!.depositAddress,
        amount: inv!.amountExpected,
        token: inv!.token,
        invoiceId: inv!.id,
        tenantId: inv!.tenantId,
      })
      .returning();
    await applyTransfers(tx, [transfer!]);
  });
}

beforeAll(async () => {
  db = await getDb();
  t = await createTestTenant();
});

describe('the period job', () => {
  it('months keep the anchor day, clamped to short months', () => {
    const jan31 = new Date('2027-01-31T10:00:00.000Z');
    expect([1, 2, 3, 13].map((n) => addIntervals(jan31, 'month', 1, n).toISOString())).toEqual([
      '2027-02-28T10:00:00.000Z',
      '2027-03-31T10:00:00.000Z',
      '2027-04-30T10:00:00.000Z',
      '2028-02-29T10:00:00.000Z',
    ]);
    expect(addIntervals(jan31, 'year', 1, 1).toISOString()).toBe('2028-01-31T10:00:00.000Z');
    expect(addIntervals(jan31, 'week', 2, 1).toISOString()).toBe('2027-02-14T10:00:00.000Z');
  });

  it('trial, then three paid periods each invoiced once; unpaid: past_due, paid: active again', async () => {
    const t0 = new Date(Date.UTC(2030, 0, 31, 12));
    const sub = await subscribe({ name: 'Monthly', amount: '10.00', interval: 'month', trialDays: 3, graceDays: 5 }, t0);
    expect(sub.status).toBe('trialing');
    await run(at(t0, 1));
    expect(await periods(sub.id)).toHaveLength(0);

    // Trial over: the first period (anchored at the trial's end), its invoice, subscription.renewed.
    const trialEnd = at(t0, 3);
    await run(trialEnd);
    await run(trialEnd); // a second run at the same instant changes nothing
    let [first] = await periods(sub.id);
    expect(await periods(sub.id)).toHaveLength(1);
    expect(first!.periodStart).toEqual(trialEnd);
    expect(first!.periodEnd).toEqual(addIntervals(trialEnd, 'month', 1, 1));
    expect(await row(sub.id)).toMatchObject({ status: 'active', periodNumber: 0, currentPeriodStart: trialEnd });

    // Paid; the next two periods are invoiced at their starts, and paid.
    await pay(first!.invoiceId);
    for (const n of [1, 2]) {
      const start = addIntervals(trialEnd, 'month', 1, n);
      await run(new Date(start.getTime() - 1));
      expect(await periods(sub.id)).toHaveLength(n);
      await run(start);
      const all = await periods(sub.id);
      expect(all).toHaveLength(n + 1);
      await pay(all[n]!.invoiceId);
    }
    [first] = await periods(sub.id);
    const third = (await periods(sub.id))[2]!;
    expect(third.periodStart).toEqual(addIntervals(trialEnd, 'month', 1, 2));

    // The fourth period's invoice is not paid: due after a week (the period is longer), then past_due, then paid: active.
    const fourthStart = addIntervals(trialEnd, 'month', 1, 3);
    await run(fourthStart);
    const fourth = (await periods(sub.id))[3]!;
    expect(fourth.dueAt).toEqual(at(fourthStart, 7));
    await run(at(fourthStart, 6));
    expect((await row(sub.id)).status).toBe('active');
    await run(at(fourthStart, 7));
    expect((await row(sub.id)).status).toBe('past_due');
    await pay(fourth.invoiceId);
    await run(at(fourthStart, 8));
    expect((await row(sub.id)).status).toBe('active');

    expect(await eventTypes(sub.id)).toEqual([
      'subscription.created',
      'subscription.renewed',
      'subscription.renewed',
      'subscription.renewed',
      'subscription.renewed',
      'subscription.past_due',
    ]);
    // Each period's invoice has its invoice.created.
    const invs = (await periods(sub.id)).map((p) => p.invoiceId);
    const created = await db
      .select()
      .from(events)
      .where(and(inArray(events.subjectId, invs), eq(events.type, 'invoice.created')));
    expect(created).toHaveLength(4);
  });

  it('unpaid after the grace period: canceled, with no further invoice', async () => {
    const t0 = new Date(Date.UTC(2031, 5, 1));
    const sub = await subscribe({ name: 'Daily', amount: '1.00', interval: 'day', graceDays: 2 }, t0);
    const [p] = await periods(sub.id);
    expect(p!.dueAt).toEqual(at(t0, 1)); // a daily plan's invoice is due within its day
    await run(at(t0, 1));
    expect((await row(sub.id)).status).toBe('past_due');
    await run(at(t0, 2.9));
    expect((await row(sub.id)).status).toBe('past_due');
    expect(await periods(sub.id)).toHaveLength(1); // a past-due subscription is not renewed
    await run(at(t0, 3));
    expect(await row(sub.id)).toMatchObject({ status: 'canceled', canceledAt: at(t0, 3) });
    await run(at(t0, 10));
    expect(await periods(sub.id)).toHaveLength(1);
    expect(await eventTypes(sub.id)).toEqual(['subscription.created', 'subscription.past_due', 'subscription.canceled']);
  });

  it('cancel at period end: canceled at the end instead of renewed', async () => {
    const t0 = new Date(Date.UTC(2032, 1, 1));
    const p = await createPlan(db, owner(), CreatePlanBody.parse({ name: 'Weekly', amount: '3.00', interval: 'week' }));
    const sub = await createSubscription(
      db,
      owner(),
      CreateSubscriptionBody.parse({ planId: p.id, customerEmail: 'q@example.com', cancelAtPeriodEnd: true }),
      {
        now: t0,
      },
    );
    await pay((await periods(sub.id))[0]!.invoiceId);
    await run(at(t0, 7));
    expect((await row(sub.id)).status).toBe('canceled');
    expect(await periods(sub.id)).toHaveLength(1);
    expect(await eventTypes(sub.id)).toEqual(['subscription.created', 'subscription.canceled']);
  });

  it('concurrent runs (separate connections) invoice each period exactly once', async () => {
    const t0 = new Date(Date.UTC(2033, 2, 1));
    const subs = await Promise.all(
      Array.from({ length: 5 }, () => subscribe({ name: 'Weekly', amount: '2.00', interval: 'week', trialDays: 1 }, t0)),
    );
    const due = at(t0, 1);
    const results = await Promise.all(Array.from({ length: 6 }, () => run(due)));
    const renewed = results.reduce((n, r) => n + (r.events['subscription.renewed'] ?? 0), 0);
    expect(renewed).toBe(5);
    for (const s of subs) {
      expect(await periods(s.id)).toHaveLength(1);
      expect((await eventTypes(s.id)).filter((e) => e === 'subscription.renewed')).toHaveLength(1);
    }
    const invs = await db.select({ id: invoices.id }).from(invoices).where(eq(invoices.tenantId, t.tenant.id));
    const billed = await db
      .select()
      .from(subscriptionPeriods)
      .where(
        inArray(
          subscriptionPeriods.invoiceId,
          invs.map((i) => i.id),
        ),
      );
    expect(new Set(billed.map((b) => b.invoiceId)).size).toBe(billed.length);
  });

  it('the unique index refuses a second billing of a period, and its invoice rolls back with it', async () => {
    const t0 = new Date(Date.UTC(2034, 3, 1));
    const sub = await subscribe({ name: 'Weekly', amount: '4.00', interval: 'week', trialDays: 1 }, t0);
    const [s] = await db.select().from(subscriptions).where(eq(subscriptions.id, sub.id));
    const [plan] = await db.select().from(plans).where(eq(plans.id, s!.planId));
    const before = (await db.select({ id: invoices.id }).from(invoices).where(eq(invoices.tenantId, t.tenant.id))).length;
    // Two workers that both skipped the row lock: both bill period 0 at once, without the job's lock.
    const results = await Promise.allSettled([0, 1].map(() => db.transaction((tx) => openPeriod(tx, s!, plan!, 0, at(t0, 1)))));
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(String(rejected.reason?.cause?.code ?? rejected.reason?.code)).toBe('23505');
    expect(await periods(sub.id)).toHaveLength(1);
    const after = (await db.select({ id: invoices.id }).from(invoices).where(eq(invoices.tenantId, t.tenant.id))).length;
    expect(after - before).toBe(1);
  });
});
