import type { Plan, Subscription } from '@/db/schema';
import { formatAmount } from '@/lib/invoices/amount';
import type { PlanView, SubscriptionView } from './schemas';

/** The wire form of a plan: tenant and mode stay inside. */
export function planView(p: Plan): PlanView {
  return {
    id: p.id,
    name: p.name,
    amount: p.priceCurrency ? null : formatAmount(p.amount),
    price: p.priceCurrency ? { currency: p.priceCurrency, amount: formatAmount(p.amount) } : null,
    chain: p.chain,
    token: p.token,
    interval: p.interval,
    intervalCount: p.intervalCount,
    trialDays: p.trialDays,
    graceDays: p.graceDays,
    createdAt: p.createdAt.toISOString(),
  };
}

/** The wire form of a subscription: the billing anchor and period number are the job's, not the API's. */
export function subscriptionView(s: Subscription, plan: Pick<Plan, 'amount' | 'priceCurrency'>, latestInvoiceId: string | null): SubscriptionView {
  return {
    id: s.id,
    planId: s.planId,
    customerEmail: s.customerEmail,
    chain: s.chain,
    token: s.token,
    amount: formatAmount(plan.amount),
    priceCurrency: plan.priceCurrency,
    status: s.status,
    currentPeriodStart: s.currentPeriodStart.toISOString(),
    currentPeriodEnd: s.currentPeriodEnd.toISOString(),
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    canceledAt: s.canceledAt?.toISOString() ?? null,
    latestInvoiceId,
    createdAt: s.createdAt.toISOString(),
  };
}
