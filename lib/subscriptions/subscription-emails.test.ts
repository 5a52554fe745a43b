import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { emails, subscriptionPeriods } from '@/db/schema';
import { renderEmail } from '@/lib/email/templates';
import { createTestTenant } from '@/lib/testing/fixtures';
import { cancelSubscription } from './cancel-subscription';
import { createPlan } from './create-plan';
import { createSubscription } from './create-subscription';
import { runBilling } from './run-billing';
import { CreatePlanBody, CreateSubscriptionBody } from './schemas';

/**
 * Issue 48 §1/§3: the customer is reminded before the period's invoice falls due (once), and told when their
 * subscription is canceled, whoever cancels it. The clock is moved, never slept.
 */
const H = 3_600_000;

async function subscribed(plan: Record<string, unknown>) {
  const t = await createTestTenant({ name: 'Gym & Co' });
  const owner = { tenantId: t.tenant.id, mode: 'test' as const, tenant: { rails: null } };
  const p = await createPlan(t.db, owner, CreatePlanBody.parse({ name: 'Gym', amount: '9.00', ...plan }));
  const to = `kim-${t.tenant.id.slice(-8).toLowerCase()}@example.com`;
  const t0 = new Date();
  const sub = await createSubscription(t.db, owner, CreateSubscriptionBody.parse({ planId: p.id, customerEmail: to }), { now: t0 });
  const mails = async (kind: string) =>
    t.db
      .select()
      .from(emails)
      .where(and(eq(emails.to, to), eq(emails.kind, kind as never)));
  return { t, sub, to, t0, mails, where: { id: sub.id, tenantId: t.tenant.id, mode: 'test' as const } };
}

describe('subscription e-mails', () => {
  it("an unpaid period's invoice is reminded once before it falls due: 24 h before, or half its window when shorter", async () => {
    const { t, sub, t0, mails } = await subscribed({ interval: 'week', graceDays: 2 });
    const [period] = await t.db.select().from(subscriptionPeriods).where(eq(subscriptionPeriods.subscriptionId, sub.id));
    const due = period!.dueAt.getTime();
    expect(due - t0.getTime()).toBe(7 * 24 * H);
    await runBilling(t.db, { now: new Date(due - 25 * H), tenantId: t.tenant.id });
    expect(await mails('upcoming')).toHaveLength(0);
    await runBilling(t.db, { now: new Date(due - 23 * H), tenantId: t.tenant.id });
    await runBilling(t.db, { now: new Date(due - 22 * H), tenantId: t.tenant.id });
    const upcoming = await mails('upcoming');
    expect(upcoming).toHaveLength(1);
    expect(upcoming[0]).toMatchObject({ subjectId: sub.latestInvoiceId, status: 'pending' });
    const [invoiceMail] = await mails('invoice');
    expect(upcoming[0]!.data.payUrl).toBe(invoiceMail!.data.payUrl);
    const text = renderEmail('upcoming', upcoming[0]!.data);
    expect(text.subject).toBe('Your invoice from Gym & Co is due soon');
    expect(text.text).toContain('9.00 USDT on BSC');
    expect(text.text).toContain(`Pay the invoice: ${invoiceMail!.data.payUrl}`);

    // A daily plan: due within the day, so reminded at half of it (12 h), not the moment it is created.
    const daily = await subscribed({ interval: 'day' });
    const [dp] = await daily.t.db.select().from(subscriptionPeriods).where(eq(subscriptionPeriods.subscriptionId, daily.sub.id));
    await runBilling(daily.t.db, { now: new Date(dp!.dueAt.getTime() - 13 * H), tenantId: daily.t.tenant.id });
    expect(await daily.mails('upcoming')).toHaveLength(0);
    await runBilling(daily.t.db, { now: new Date(dp!.dueAt.getTime() - 11 * H), tenantId: daily.t.tenant.id });
    expect(await daily.mails('upcoming')).toHaveLength(1);
  });

  it('canceled now by the merchant: the customer is told, once', async () => {
    const { where, mails } = await subscribed({ interval: 'month' });
    await cancelSubscription((await createTestTenant()).db, where, { atPeriodEnd: false });
    await cancelSubscription((await createTestTenant()).db, where, { atPeriodEnd: false });
    const canceled = await mails('canceled');
    expect(canceled).toHaveLength(1);
    const text = renderEmail('canceled', canceled[0]!.data);
    expect(text.subject).toBe('Your Gym subscription with Gym & Co is canceled');
    expect(text.text).toContain('canceled by Gym & Co');
  });

  it('canceled at period end, and canceled for non-payment after the grace period: each told why', async () => {
    // In its trial (nothing owed), canceled at period end: it runs to the trial's end, then ends.
    const end = await subscribed({ interval: 'month', trialDays: 2 });
    await cancelSubscription(end.t.db, end.where, { atPeriodEnd: true });
    expect(await end.mails('canceled')).toHaveLength(0); // not yet: it runs to its period end
    await runBilling(end.t.db, { now: new Date(end.t0.getTime() + 47 * H), tenantId: end.t.tenant.id });
    expect(await end.mails('canceled')).toHaveLength(0);
    await runBilling(end.t.db, { now: new Date(end.t0.getTime() + 49 * H), tenantId: end.t.tenant.id });
    const [atEnd] = await end.mails('canceled');
    expect(renderEmail('canceled', atEnd!.data).text).toContain('ended at the end of its period');

    const unpaid = await subscribed({ interval: 'week', graceDays: 1 });
    const [p] = await unpaid.t.db.select().from(subscriptionPeriods).where(eq(subscriptionPeriods.subscriptionId, unpaid.sub.id));
    await runBilling(unpaid.t.db, { now: p!.dueAt, tenantId: unpaid.t.tenant.id }); // past due
    expect(await unpaid.mails('canceled')).toHaveLength(0);
    await runBilling(unpaid.t.db, { now: new Date(p!.dueAt.getTime() + 25 * H), tenantId: unpaid.t.tenant.id });
    const [lapsed] = await unpaid.mails('canceled');
    expect(renderEmail('canceled', lapsed!.data).text).toContain('was not paid');
  });
});
