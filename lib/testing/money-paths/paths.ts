import { createRefundClaimAction } from '@/app/dashboard/invoices/[id]/refund-claim-actions';
import { approveRefundRequestAction, createRefundAction, refundHeldPaymentAction } from '@/app/dashboard/invoices/[id]/refund-actions';
import { createWithdrawalAction } from '@/app/dashboard/balance/actions';
import { createPayoutAction } from '@/app/dashboard/payouts/actions';
import { exchangeWithdrawAction } from '@/app/dashboard/balance/exchange-actions';
import { decideWithdrawalAction } from '@/app/dashboard/settings/withdrawal-controls-actions';
import type { MoneyPathId } from '@/lib/money-paths';
import { createRefundClaim } from '@/lib/refunds/claims/create-refund-claim';
import { redeemRefundClaim } from '@/lib/refunds/claims/redeem-refund-claim';
import { autoRefund, runAutoRefunds } from '@/lib/refunds/requests/auto-refund';
import { proposeRefundAddress } from '@/lib/refunds/requests/propose-refund-address';
import { call } from '../app';
import { permitSetupRunner } from './permit-setup';
import { pullJob, pullSubject } from './subscription-pull';
import { api, asSession, fromApi, fromLib, type Cred, type PathRunner, type Subject, type Try, type Variant } from './entries';
import { BTC_LISTED, BTC_UNLISTED, OVER_THRESHOLD, XRP_LISTED, type World } from './world';

/*
 * How each money path is entered, through the functions its callers call: the dashboard's server actions (as the
 * session's user), the /v1 routes (with the key), the checkout's and the claim page's functions (what their server
 * actions call, with the auto-refund they try at once), and the policy's job. Typed over every path of the declaration:
 * a path added to lib/money-paths.ts without its runner here does not compile (and the matrix test fails).
 */
const OWNER_ACTOR = { kind: 'user' as const, id: 'usr_matrix', label: 'owner@example.com' };
const tokenOf = (url: unknown) => String(url).split('/refund-claim/')[1]!;
const step = (v: Variant) => ({ totpCode: v.totpCode });
const invoiceOnly = async (w: World): Promise<Subject> => ({ invoiceId: w.invoiceId });
const evm = { destination: (w: World) => w.listed, unlisted: (w: World) => [{ destination: w.unlisted() }], screened: (w: World) => w.chain.token };

/** An owner's claim link (the fixture: made in the dashboard), optionally redeemed to `v.destination` as the payer would. */
async function ownerLink(w: World, v: Variant, redeem: boolean): Promise<Subject> {
  const link = await createRefundClaim(w.db, w.owner, { invoiceId: w.invoiceId, amount: v.amount }, OWNER_ACTOR);
  const s: Subject = { invoiceId: w.invoiceId, linkSecret: tokenOf(link.url), linkId: link.id };
  if (!redeem) return s;
  const used = await redeemRefundClaim(w.db, s.linkSecret!, { destinationAddress: v.destination }, w.client());
  return { ...s, requestId: used.request.id };
}

/** The policy's job, as the worker runs it (two hours on by default: past the 1 h delay); earlier rows' requests declined first. */
async function job(w: World, _s: Subject, _c: Cred, v: Variant): Promise<Try> {
  const counts = await runAutoRefunds(w.db, { now: v.now ?? new Date(Date.now() + 2 * 3_600_000) });
  return counts.refunded > 0 ? { ok: true, data: counts } : { ok: false, code: `not_refunded ${JSON.stringify(counts)}` };
}

/** Mines a block every 100 ms while an exchange withdrawal waits for its transfer's confirmations. */
async function mining<T>(w: World, fn: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => void w.chain.mine(1).catch(() => {}), 100);
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}

let seq = 0;
const payoutItem = (w: World, v: Variant) => ({
  reference: `mp-${process.pid}-${++seq}`,
  destinationAddress: v.destination,
  amount: v.amount,
  chain: w.net.chain,
  token: w.net.token,
});
const exchangeBody = (v: Variant) => ({
  type: 'fixed',
  fromCcy: 'USDTBSC',
  toCcy: v.toCcy ?? 'BTC',
  direction: 'from',
  amount: Number(v.amount),
  toAddress: v.destination,
  ...(v.tag ? { tag: v.tag } : {}),
});

export const RUNNERS: Record<MoneyPathId, PathRunner> = {
  withdrawal: {
    amount: '1.00',
    ...evm,
    belowMinimum: '0.001',
    subject: invoiceOnly,
    entries: {
      action: (_w, _s, c, v) => asSession(c.sid, () => createWithdrawalAction({ amount: v.amount, destinationAddress: v.destination }, step(v))),
      api: (_w, _s, c, v) => api('POST', '/v1/withdrawals', c, { amount: v.amount, destinationAddress: v.destination }),
      job,
    },
  },
  batch_payout: {
    amount: '1.00',
    ...evm,
    belowMinimum: '0.001',
    subject: invoiceOnly,
    entries: {
      // A batch of one item: its refusal is the item's own (a batch answers payout_items_invalid with one detail per item).
      action: (w, _s, c, v) => asSession(c.sid, () => createPayoutAction({ items: [payoutItem(w, v)] }, step(v))),
      api: async (w, _s, c, v) => {
        const r = await call('POST', '/v1/payouts', {
          key: c.key,
          body: { items: [payoutItem(w, v)] },
          headers: { 'idempotency-key': `mp-${process.pid}-${++seq}` },
        });
        const itemCode = r.body?.code === 'payout_items_invalid' ? r.body.details?.[0]?.code : undefined;
        return itemCode ? { ok: false, code: String(itemCode) } : fromApi(r);
      },
      job,
    },
  },
  exchange_withdrawal: {
    amount: '10',
    destination: () => BTC_LISTED,
    // Another address; and a listed address with a memo the owner never listed (a shared exchange deposit address,
    // where the memo says whose account is credited).
    unlisted: () => [{ destination: BTC_UNLISTED }, { toCcy: 'XRP', destination: XRP_LISTED, tag: '424242' }],
    belowMinimum: '1',
    subject: invoiceOnly,
    entries: {
      action: (w, _s, c, v) => mining(w, () => asSession(c.sid, () => exchangeWithdrawAction(exchangeBody(v), step(v)))),
      api: (w, _s, c, v) =>
        mining(w, () => api('POST', '/v1/withdrawals/exchange/withdrawal', c, exchangeBody(v), { 'idempotency-key': `mp-${process.pid}-${++seq}` })),
      job,
    },
  },
  merchant_refund: {
    amount: '1.00',
    ...evm,
    belowMinimum: '0.001',
    subject: invoiceOnly,
    entries: {
      action: (_w, s, c, v) =>
        asSession(c.sid, () => createRefundAction(s.invoiceId, { amount: v.amount, destinationAddress: v.destination }, step(v))),
      api: (_w, s, c, v) => api('POST', `/v1/invoices/${s.invoiceId}/refunds`, c, { amount: v.amount, destinationAddress: v.destination }),
      job,
    },
  },
  payer_proposal: {
    amount: '0',
    ...evm,
    subject: invoiceOnly,
    entries: {
      // What proposeRefundAddressAction does: the proposal, then the auto-refund it tries at once.
      checkout: (w, s, c, v) =>
        fromLib(async () => {
          const made = await proposeRefundAddress(
            w.db,
            s.invoiceId,
            { destinationAddress: v.destination, claimToken: c.token ?? undefined },
            w.client(),
          );
          if (made.autoRefund) await autoRefund(w.db, made.request.id);
          return made.request;
        }),
      job,
    },
  },
  refund_request_approval: {
    amount: '1.00',
    ...evm,
    // One request waits per payment at a time: earlier rows' are declined first.
    subject: async (w, v) => (await w.quiet(), ownerLink(w, v, true)),
    entries: {
      action: (_w, s, c, v) => asSession(c.sid, () => approveRefundRequestAction(s.invoiceId, s.requestId!, { amount: v.amount }, step(v))),
      api: (_w, s, c, v) => api('POST', `/v1/refund-requests/${s.requestId}/approve`, c, { amount: v.amount }),
      job,
    },
  },
  claim_link_create: {
    amount: '1.00',
    ...evm,
    belowMinimum: '0.001',
    subject: invoiceOnly,
    entries: {
      action: (_w, s, c, v) => asSession(c.sid, () => createRefundClaimAction(s.invoiceId, { amount: v.amount }, step(v))),
      api: (_w, s, c, v) => api('POST', '/v1/refund-claims', c, { invoiceId: s.invoiceId, amount: v.amount }),
      job,
    },
  },
  claim_link_redeem: {
    amount: '1.00',
    ...evm,
    subject: (w, v) => ownerLink(w, v, false),
    entries: {
      // What redeemRefundClaimAction does: the redemption, then the auto-refund it tries at once.
      claim: (w, _s, c, v) =>
        fromLib(async () => {
          const made = await redeemRefundClaim(w.db, c.token ?? '', { destinationAddress: v.destination }, w.client());
          if (made.autoRefund) await autoRefund(w.db, made.request.id);
          return made.request;
        }),
      job,
    },
  },
  auto_refund: {
    amount: '2.00',
    ...evm,
    moneyOnly: true,
    subject: (w, v) => ownerLink(w, v, true),
    entries: {
      // A key's only way towards an automatic refund: a link of its own, redeemed to a listed address, then the job.
      api: async (w, s, c, v) => {
        await w.quiet();
        const made = await api('POST', '/v1/refund-claims', c, { invoiceId: s.invoiceId, amount: v.amount });
        if (!made.ok) return made;
        await redeemRefundClaim(w.db, tokenOf(made.data.url), { destinationAddress: w.listed }, w.client());
        return job(w, s, c, v);
      },
      job,
    },
  },
  held_payment_send_back: {
    amount: '10',
    ...evm,
    subject: async (w) => ({ invoiceId: w.invoiceId, paymentId: await w.heldPayment() }),
    entries: {
      action: (_w, s, c) => asSession(c.sid, () => refundHeldPaymentAction(s.invoiceId, s.paymentId!)),
      // Both routes (the old name stays): the first refusal is reported, and the second must refuse too.
      api: async (_w, s, c) => {
        const held = await api('POST', `/v1/invoices/${s.invoiceId}/held-payments/${s.paymentId}/refund`, c, {});
        if (held.ok) return held;
        const old = await api('POST', `/v1/invoices/${s.invoiceId}/mismatched-payments/${s.paymentId}/refund`, c, {});
        return old.ok ? old : held;
      },
      job,
    },
  },
  // Only the job pulls: no other actor has a way in (no /v1 operation, no dashboard action).
  subscription_pull: {
    amount: '10.00',
    ...evm,
    moneyOnly: true,
    subject: pullSubject,
    entries: { job: (w, s) => pullJob(w, s) },
  },
  // The payer's signatures, forwarded by a key or given at the checkout; the job only resumes recorded ones.
  subscription_permit_setup: permitSetupRunner,
  held_withdrawal_approval: {
    amount: OVER_THRESHOLD,
    ...evm,
    // A withdrawal an admin key made above the threshold: held for the owner.
    subject: async (w, v) => {
      const held = await api(
        'POST',
        '/v1/withdrawals',
        { sid: null, key: w.keys.admin, token: null },
        { amount: v.amount, destinationAddress: w.listed },
      );
      if (!held.ok || held.data.pendingReason !== 'awaiting_approval') throw new Error(`no held withdrawal: ${JSON.stringify(held)}`);
      return { invoiceId: w.invoiceId, withdrawalId: held.data.id };
    },
    entries: {
      action: (_w, s, c, v) => asSession(c.sid, () => decideWithdrawalAction(s.withdrawalId!, 'approve', step(v))),
      job,
    },
  },
};
