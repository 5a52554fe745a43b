import { and, eq, sql } from 'drizzle-orm';
import { collectionPulls, emails, invoices, plans, subscriptionPeriods, subscriptions, type Plan, type Subscription } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { enqueueEmail } from '@/lib/email/enqueue-email';
import { log } from '@/lib/log';
import { PAID_STATUSES } from '@/lib/payment-links/view';
import { emailCancellation } from './email-cancellation';
import { openPeriod, periodBounds, type NetworkFor } from './open-period';
import { addDays } from './periods';
import { remindUpcoming } from './remind-upcoming';
import { writeSubscriptionEvents, type SubscriptionEventType } from './write-subscription-events';
import { chargeGasOnEnd } from './charge-gas-on-end';

type Change = { set: Partial<Subscription>; events: SubscriptionEventType[] } | null;

/**
 * The current period's invoice: whether it is paid, when it falls due, and whether its automatic pull is in flight
 * (recorded and signed, not yet seen mined; or mined and the watcher not yet seeing the payment): the payer's money is
 * on its way, so no past-due reminder asking them to pay again.
 */
async function currentPeriod(tx: Db, sub: Subscription) {
  const [p] = await tx
    .select({ dueAt: subscriptionPeriods.dueAt, invoiceStatus: invoices.status, pullStatus: collectionPulls.status })
    .from(subscriptionPeriods)
    .innerJoin(invoices, eq(invoices.id, subscriptionPeriods.invoiceId))
    .leftJoin(
      collectionPulls,
      and(eq(collectionPulls.subscriptionId, subscriptionPeriods.subscriptionId), eq(collectionPulls.periodStart, subscriptionPeriods.periodStart)),
    )
    .where(and(eq(subscriptionPeriods.subscriptionId, sub.id), eq(subscriptionPeriods.periodStart, sub.currentPeriodStart)));
  if (!p) return null;
  const pulling = p.pullStatus === 'signed' || p.pullStatus === 'confirmed';
  return { dueAt: p.dueAt, paid: (PAID_STATUSES as readonly string[]).includes(p.invoiceStatus), pulling };
}

/** The reminder of a past-due period: the invoice e-mail's own values (its pay link), as a reminder. */
async function remind(tx: Db, sub: Subscription) {
  const [p] = await tx
    .select({ invoiceId: subscriptionPeriods.invoiceId })
    .from(subscriptionPeriods)
    .where(and(eq(subscriptionPeriods.subscriptionId, sub.id), eq(subscriptionPeriods.periodStart, sub.currentPeriodStart)));
  const [sent] = p
    ? await tx
        .select()
        .from(emails)
        .where(and(eq(emails.kind, 'invoice'), eq(emails.subjectId, p.invoiceId)))
    : [];
  if (sent)
    await enqueueEmail(tx, { tenantId: sub.tenantId, mode: sub.mode, kind: 'reminder', subjectId: p!.invoiceId, to: sent.to, data: sent.data });
}

/** One transition of the subscription at `now`, or null when it has none: paid again, past due, out of grace, at period end. */
async function step(tx: Db, sub: Subscription, plan: Plan, now: Date, networkFor?: NetworkFor): Promise<Change> {
  const period = sub.status === 'trialing' ? null : await currentPeriod(tx, sub);
  if (sub.status === 'past_due' && period?.paid) return { set: { status: 'active' }, events: [] };
  if (sub.status === 'active' && period && !period.paid && !period.pulling && now >= period.dueAt)
    return { set: { status: 'past_due' }, events: ['subscription.past_due'] };
  if (sub.status === 'past_due' && period && now >= addDays(period.dueAt, plan.graceDays))
    return { set: { status: 'canceled', canceledAt: now }, events: ['subscription.canceled'] };
  if ((sub.status === 'trialing' || sub.status === 'active') && now >= sub.currentPeriodEnd) {
    if (sub.cancelAtPeriodEnd) return { set: { status: 'canceled', canceledAt: now }, events: ['subscription.canceled'] };
    // The period holding `now`: periods missed while no worker ran are not billed after the fact.
    let n = sub.periodNumber + 1;
    while (periodBounds(sub, plan, n).end <= now) n++;
    const { start, end } = await openPeriod(tx, sub, plan, n, now, networkFor);
    return { set: { status: 'active', periodNumber: n, currentPeriodStart: start, currentPeriodEnd: end }, events: ['subscription.renewed'] };
  }
  return null;
}

/**
 * Moves one subscription along to `now` in one transaction holding its row lock (another worker skips it): every
 * transition due, each with its events in the same transaction (the outbox). Returns the events written.
 */
async function billOne(db: Db, id: string, now: Date, networkFor?: NetworkFor): Promise<SubscriptionEventType[]> {
  return db.transaction(async (tx) => {
    const [locked] = await tx.select().from(subscriptions).where(eq(subscriptions.id, id)).for('update', { skipLocked: true });
    if (!locked || locked.status === 'canceled') return [];
    const [plan] = await tx.select().from(plans).where(eq(plans.id, locked.planId));
    let sub = locked;
    const written: SubscriptionEventType[] = [];
    // A few steps at most (paid again, then renewed; past due, then out of grace).
    for (let i = 0; i < 4 && sub.status !== 'canceled'; i++) {
      const change = await step(tx, sub, plan!, now, networkFor);
      if (!change) break;
      const wasPastDue = sub.status === 'past_due';
      [sub] = await tx
        .update(subscriptions)
        .set({ ...change.set, updatedAt: now })
        .where(eq(subscriptions.id, sub.id))
        .returning();
      await writeSubscriptionEvents(tx, sub!, change.events);
      if (change.events.includes('subscription.past_due')) await remind(tx, sub!);
      if (change.events.includes('subscription.canceled')) await emailCancellation(tx, sub!, wasPastDue ? 'unpaid' : 'period_end');
      written.push(...change.events);
    }
    // Its gas no credit paid yet, charged with the end (last: it locks the balance).
    if (sub!.status === 'canceled') await chargeGasOnEnd(tx, sub!);
    return written;
  });
}

export interface BillingOptions {
  /** The clock: tests move it instead of sleeping. */
  now?: Date;
  networkFor?: NetworkFor;
  /** Only this tenant's subscriptions (tests share one database). */
  tenantId?: string;
  limit?: number;
}

/**
 * The subscription billing job: every subscription with something due at `now` (a period ended, an invoice past its
 * due date, a past-due one paid or out of grace) moved along, each in its own transaction. Safe to run in several
 * workers at once: a locked subscription is skipped, and a period is invoiced once (lib/subscriptions/open-period.ts).
 */
export async function runBilling(db: Db, opts: BillingOptions = {}) {
  const now = opts.now ?? new Date();
  const at = sql`${now.toISOString()}::timestamptz`;
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      select s.id from ${subscriptions} s
       where s.status <> 'canceled' ${opts.tenantId ? sql`and s.tenant_id = ${opts.tenantId}` : sql``}
         and (s.current_period_end <= ${at}
              or s.status = 'past_due'
              or exists (select 1 from ${subscriptionPeriods} p join ${invoices} i on i.id = p.invoice_id
                          where p.subscription_id = s.id and p.period_start = s.current_period_start
                            and p.due_at <= ${at} and i.status not in (${sql.join(
                              PAID_STATUSES.map((x) => sql`${x}`),
                              sql`, `,
                            )})))
       order by s.current_period_end
       limit ${opts.limit ?? 500}`),
  );
  const counts: Partial<Record<SubscriptionEventType, number>> = {};
  let failed = 0;
  for (const { id } of rows) {
    try {
      for (const type of await billOne(db, id, now, opts.networkFor)) counts[type] = (counts[type] ?? 0) + 1;
    } catch (err) {
      // One subscription's rail being unconfigured must not hold up the others; it is retried next run.
      failed++;
      log.error('subscription billing failed', { subscriptionId: id, error: err instanceof Error ? err.message : String(err) });
    }
  }
  // Before-due reminders: not a transition, so a pass of their own (idempotent per invoice).
  const upcoming = await remindUpcoming(db, now, opts.tenantId);
  return { seen: rows.length, failed, events: counts, upcoming };
}
