import { and, eq } from 'drizzle-orm';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { events, refundRequests } from '@/db/schema';
import { ApiError } from '@/lib/api/errors';
import { type Network } from '@/lib/chain/network';
import { Decimal } from '@/lib/money';
import { updateAutoRefundPolicy } from '@/lib/withdrawal-controls/update-auto-refund-policy';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { freshAddress, settledInvoices } from '@/lib/testing/settled-invoice';
import { withTestChain } from '@/lib/testing/test-chain';
import { updateWithdrawalControls } from '@/lib/withdrawal-controls/update-withdrawal-controls';
import { autoRefund, runAutoRefunds } from './auto-refund';
import { proposeRefundAddress, type ProposalLimits } from './propose-refund-address';

let chain: AnvilChain;
let net: Network;

withTestChain(async (c) => {
  chain = c;
  net = c.network('test');
  await chain.mint(chain.addresses.hot, '100000');
});

const settled = settledInvoices(() => ({ chain, net }));
const { balance, onChain, send } = settled;
/** The payer's claim token of each invoice (from its create response): proposals carry it, as the payer's checkout does. */
const claims = new Map<string, string>();
const settledInvoice = async (...args: Parameters<typeof settled.settledInvoice>) => {
  const t = await settled.settledInvoice(...args);
  claims.set(t.invoice.id, t.claim!);
  return t;
};
const LIMITS: ProposalLimits = { perAddressPerMinute: 1000, perInvoice: 5 };
let ip = 0;
/** A payer at an address of their own, so per-address limits do not mix tests. */
const propose = (db: any, invoiceId: string, address: string, limits = LIMITS) =>
  proposeRefundAddress(
    db,
    invoiceId,
    { destinationAddress: address, claimToken: claims.get(invoiceId) },
    { address: `198.51.100.${++ip % 250}:${process.pid}` },
    limits,
  );
/** The payer's proposal with the checkout's claim token: the only kind (with claim links) the policy refunds by itself. */
const proposeWithToken = (db: any, invoiceId: string, address: string) => propose(db, invoiceId, address, LIMITS);
const errorOf = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    if (err instanceof ApiError) return { code: err.code, status: err.status, message: err.message };
    throw err;
  }
  throw new Error('expected an ApiError');
};
const OWNER_ACTOR = { kind: 'user' as const, id: 'usr_test', label: 'owner@example.com' };
/** The policy switched on before the payment (earlier payments are never automatic), with no delay. */
const policyOn = {
  setup: (x: { db: any; owner: { tenantId: string; mode: 'test' } }) =>
    updateAutoRefundPolicy(x.db, x.owner, OWNER_ACTOR, { autoRefundOverpayments: true, autoRefundDelaySeconds: 0 }),
};
const session = (owner: { tenantId: string; mode: 'test' }) => ({ owner, user: { id: 'usr_test', email: 'owner@example.com' }, actor: OWNER_ACTOR });
const controls = (over: { allowlistEnabled?: boolean; dailyLimit?: string }) => ({
  allowlistEnabled: false,
  coolingOffHours: 24,
  dailyLimit: null,
  approvalThreshold: null,
  ...over,
});

describe('refund requests: the payer proposes, the merchant decides', () => {
  it('an expired invoice paid late: the payer proposes an address, the merchant approves, the payer receives exactly the payment on chain', async () => {
    const t = await settledInvoice('40.00', '40.00', { expire: true, extra: '5' });
    expect(t.invoice.status).toBe('EXPIRED');
    const payer = freshAddress();
    const made = await propose(t.db, t.invoice.id, payer.toLowerCase());
    expect(made.request).toMatchObject({ status: 'PENDING', amount: '40.000000000000000000', invoiceId: t.invoice.id });
    expect(made.autoRefund).toBe(false);

    const listed = await call('GET', `/v1/refund-requests?status=PENDING&invoiceId=${t.invoice.id}`, { key: t.test });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data).toEqual([
      expect.objectContaining({ id: made.request.id, status: 'PENDING', amount: '40.00', destinationAddress: getAddress(payer), withdrawalId: null }),
    ]);

    const before = await balance(t);
    const ok = await call('POST', `/v1/refund-requests/${made.request.id}/approve`, { key: t.test, body: {} });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ status: 'APPROVED', decidedBy: expect.stringMatching(/^api_key:key_/) });
    const w = (await call('GET', `/v1/withdrawals/${ok.body.withdrawalId}`, { key: t.test })).body;
    // Money the merchant never kept goes back at no cost to it (issue 30 §2): no withdrawal fee, and the invoice fee
    // charged on it (0.40) comes back with it, so the balance is where it was before the late payment.
    expect(w).toMatchObject({
      amount: '40.00',
      feeAmount: '0.00',
      destinationAddress: getAddress(payer),
      metadata: { refundOfInvoiceId: t.invoice.id },
    });
    expect(await balance(t)).toBe(new Decimal(before).minus('39.60').toString());
    await send();
    expect(await onChain(payer)).toBe('40');

    // Both events were written with their state changes.
    const types = (await t.db.select({ type: events.type }).from(events).where(eq(events.subjectId, made.request.id))).map((e) => e.type);
    expect(types.sort()).toEqual(['refund_request.approved', 'refund_request.created']);
    // Deciding twice is a conflict; nothing is left to propose for.
    const again = await call('POST', `/v1/refund-requests/${made.request.id}/approve`, { key: t.test, body: {} });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('invalid_state');
    expect(await errorOf(propose(t.db, t.invoice.id, freshAddress()))).toMatchObject({ code: 'nothing_to_refund', status: 409 });
  });

  it('a new proposal supersedes the undecided one; a declined one shows its reason and the payer may propose again, within the per-invoice count', async () => {
    const t = await settledInvoice('10.00', '15.00');
    const first = await propose(t.db, t.invoice.id, freshAddress());
    const second = await propose(t.db, t.invoice.id, freshAddress());
    const rows = await t.db.select().from(refundRequests).where(eq(refundRequests.invoiceId, t.invoice.id));
    expect(rows.map((r) => [r.id, r.status]).sort()).toEqual(
      [
        [first.request.id, 'SUPERSEDED'],
        [second.request.id, 'PENDING'],
      ].sort(),
    );
    const declined = await call('POST', `/v1/refund-requests/${second.request.id}/decline`, {
      key: t.test,
      body: { reason: 'Refunds go by bank transfer.' },
    });
    expect(declined.status, declined.text).toBe(200);
    expect(declined.body).toMatchObject({ status: 'DECLINED', declineReason: 'Refunds go by bank transfer.', withdrawalId: null });
    // The payer's page (its claim token) shows it, with the full address and the form.
    const page = (await call('GET', `/api/pay/${t.invoice.id}/status`, { headers: { 'x-claim-token': t.claim! } })).body;
    expect(page.refund).toMatchObject({
      claimable: '5.00',
      canPropose: true,
      request: {
        status: 'DECLINED',
        declineReason: 'Refunds go by bank transfer.',
        destinationAddress: getAddress(declined.body.destinationAddress),
      },
    });
    // Anyone else with the invoice id: the payment and the outcome, the address masked, no form.
    const bare = (await call('GET', `/api/pay/${t.invoice.id}/status`)).body;
    expect(bare.claimed).toBe(false);
    expect(bare.refund).toMatchObject({ canPropose: false, request: { status: 'DECLINED' } });
    expect(bare.refund.request.destinationAddress).toMatch(/^0x[0-9a-fA-F]{4}…[0-9a-fA-F]{4}$/);
    expect(JSON.stringify(bare)).not.toContain(declined.body.destinationAddress.slice(2, 30));
    await propose(t.db, t.invoice.id, freshAddress());
    await propose(t.db, t.invoice.id, freshAddress());
    await propose(t.db, t.invoice.id, freshAddress());
    expect(await errorOf(propose(t.db, t.invoice.id, freshAddress()))).toMatchObject({ code: 'too_many_refund_requests', status: 409 });
    // Every proposal stays on record (nothing deleted, the refused sixth wrote nothing): the declined one, three superseded, one undecided.
    const after = await t.db.select().from(refundRequests).where(eq(refundRequests.invoiceId, t.invoice.id));
    expect(after).toHaveLength(5);
    expect(after.filter((r) => r.status === 'PENDING')).toHaveLength(1);
    expect(after.filter((r) => r.status === 'SUPERSEDED')).toHaveLength(3);
    expect(after.filter((r) => r.status === 'DECLINED')).toHaveLength(1);
  });

  it('bad or dangerous addresses, unknown invoices, invoices with nothing to give back and floods are refused, writing nothing', async () => {
    const t = await settledInvoice('10.00', '12.00', { settle: false });
    const id = t.invoice.id as string;
    const bad = [
      ['0x1234', 'invalid_address'],
      ['not an address', 'invalid_address'],
      ['0x0000000000000000000000000000000000000000', 'invalid_address'],
      // a checksum typo: the mixed-case form of an address with one letter's case flipped. Many letters, so
      // it stays mixed case (freshAddress() has few: once flipped it was sometimes all upper case, which
      // carries no checksum, and the test failed about one run in ten).
      [getAddress(`0x${'abcdef0123'.repeat(4)}`).replace(/[a-f]/, (c) => c.toUpperCase()), 'invalid_address'],
      // one of this gateway's deposit addresses
      [t.invoice.depositAddress, 'destination_deposit_address'],
    ] as const;
    for (const [address, code] of bad) expect(await errorOf(propose(t.db, id, address)), address).toMatchObject({ code, status: 400 });
    expect(await errorOf(proposeRefundAddress(t.db, id, { destinationAddress: 42, claimToken: t.claim }, { address: null }))).toMatchObject({
      code: 'invalid_address',
    });
    expect(await errorOf(propose(t.db, 'inv_00000000000000000000000000', freshAddress()))).toMatchObject({ code: 'not_found', status: 404 });
    expect(await errorOf(propose(t.db, 'junk', freshAddress()))).toMatchObject({ code: 'not_found', status: 404 });
    // An invoice still waiting for its payment has nothing to refund.
    const open = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '10.00' } });
    claims.set(open.body.id, new URL(open.body.checkoutUrl, 'http://x').searchParams.get('claim')!);
    expect(await errorOf(propose(t.db, open.body.id, freshAddress()))).toMatchObject({ code: 'nothing_to_refund', status: 409 });
    expect(await t.db.select().from(refundRequests).where(eq(refundRequests.invoiceId, id))).toEqual([]);

    // Per client address: the 4th proposal in the minute is refused with Retry-After.
    const from = { address: `203.0.113.9:${process.pid}:${Date.now()}` };
    const limits = { perAddressPerMinute: 3, perInvoice: 100 };
    for (let i = 0; i < 3; i++) await proposeRefundAddress(t.db, id, { destinationAddress: freshAddress(), claimToken: t.claim }, from, limits);
    const flood = await proposeRefundAddress(t.db, id, { destinationAddress: freshAddress(), claimToken: t.claim }, from, limits).catch(
      (e: ApiError) => e,
    );
    expect(flood).toBeInstanceOf(ApiError);
    expect((flood as ApiError).code).toBe('rate_limited');
    expect(Number((flood as ApiError).headers?.['Retry-After'])).toBeGreaterThan(0);
  });

  it('the merchant side: scopes, another tenant or mode is a 404, bad input is a 400, approving before the payment settled is a 409', async () => {
    const t = await settledInvoice('10.00', '12.00', { settle: false });
    const made = await propose(t.db, t.invoice.id, freshAddress());
    const rid = made.request.id;
    const other = await createTestTenant();
    for (const [method, path] of [
      ['GET', `/v1/refund-requests/${rid}`],
      ['POST', `/v1/refund-requests/${rid}/approve`],
      ['POST', `/v1/refund-requests/${rid}/decline`],
    ] as const) {
      expect((await call(method, path, { key: other.test, body: method === 'POST' ? {} : undefined })).status, path).toBe(404);
      expect((await call(method, path, { key: t.live, body: method === 'POST' ? {} : undefined })).status, path).toBe(404);
    }
    expect((await call('GET', '/v1/refund-requests', { key: other.test })).body.data).toEqual([]);
    for (const [path, body, code] of [
      [`/v1/refund-requests/${rid}/approve`, { amount: 5 }, 'validation_failed'],
      [`/v1/refund-requests/${rid}/approve`, { amount: '1.001' }, 'invalid_amount'],
      [`/v1/refund-requests/${rid}/approve`, { destinationAddress: freshAddress() }, 'validation_failed'],
      [`/v1/refund-requests/${rid}/decline`, { reason: 'x'.repeat(501) }, 'validation_failed'],
      [`/v1/refund-requests/${rid}/decline`, { reason: '' }, 'validation_failed'],
    ] as const) {
      const res = await call('POST', path, { key: t.test, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code, JSON.stringify(body)).toBe(code);
    }
    expect((await call('GET', '/v1/refund-requests?status=NOPE', { key: t.test })).status).toBe(400);
    // Not confirmed yet: nothing settled to refund, and the request stays PENDING.
    const early = await call('POST', `/v1/refund-requests/${rid}/approve`, { key: t.test, body: {} });
    expect(early.status, early.text).toBe(409);
    expect(early.body.code).toBe('nothing_to_refund');
    expect((await call('GET', `/v1/refund-requests/${rid}`, { key: t.test })).body.status).toBe('PENDING');
    // A read-only key cannot decide.
    const ro = await call('POST', '/v1/api-keys', { key: t.test, body: { name: 'ro', scopes: ['withdrawals:read'] } });
    expect((await call('POST', `/v1/refund-requests/${rid}/decline`, { key: ro.body.key, body: {} })).status).toBe(403);
  });

  it('approve and decline racing, and approvals racing a new proposal: exactly one decision, at most one refund, no deadlock', async () => {
    const t = await settledInvoice('10.00', '30.00', { extra: '10' });
    // Up to 4 rounds × 2 proposals: more than the default count allows per invoice.
    const limits = { perAddressPerMinute: 1000, perInvoice: 100 };
    const refundCount = async () => (await call('GET', `/v1/invoices/${t.invoice.id}/refunds`, { key: t.test })).body.data.length as number;
    for (let round = 0; round < 4; round++) {
      const made = await propose(t.db, t.invoice.id, freshAddress(), limits);
      const before = await refundCount();
      const decisions = await Promise.all([
        call('POST', `/v1/refund-requests/${made.request.id}/approve`, { key: t.test, body: { amount: '1.00' } }),
        call('POST', `/v1/refund-requests/${made.request.id}/approve`, { key: t.test, body: { amount: '1.00' } }),
        call('POST', `/v1/refund-requests/${made.request.id}/decline`, { key: t.test, body: {} }),
        // the payer gives another address at the same moment (round 0 and 2 only)
        round % 2 === 0 ? propose(t.db, t.invoice.id, freshAddress(), limits) : Promise.resolve(null),
      ]);
      const [row] = await t.db.select().from(refundRequests).where(eq(refundRequests.id, made.request.id));
      const won = decisions.slice(0, 3).filter((r) => r !== null && 'status' in r && r.status === 200);
      const lost = decisions.slice(0, 3).filter((r) => r !== null && 'status' in r && r.status !== 200);
      expect(
        lost.every((r) => (r as { body: { code: string } }).body.code === 'invalid_state'),
        `round ${round}`,
      ).toBe(true);
      expect(won, `round ${round}`).toHaveLength(row!.status === 'SUPERSEDED' ? 0 : 1);
      expect((await refundCount()) - before, `round ${round}`).toBe(row!.status === 'APPROVED' ? 1 : 0);
      // Decline what the racing proposal left open, so the next round starts clean.
      await t.db
        .update(refundRequests)
        .set({ status: 'DECLINED' })
        .where(and(eq(refundRequests.invoiceId, t.invoice.id), eq(refundRequests.status, 'PENDING')));
    }
  });
});

describe('the auto-refund policy', () => {
  it('refunds an overpayment to the payer’s address once settled, by itself, even with the allow-list on; not a late payment', async () => {
    const t = await settledInvoice('20.00', '23.00', { settle: false, ...policyOn });
    expect((await call('GET', '/v1/tenants/me', { key: t.test })).body.autoRefundOverpayments).toBe(true);
    await updateWithdrawalControls(t.db, session(t.owner), controls({ allowlistEnabled: true }));
    const payer = freshAddress();
    const made = await proposeWithToken(t.db, t.invoice.id, payer);
    expect(made.autoRefund).toBe(true);
    // Not settled yet: it waits, saying why.
    expect(await autoRefund(t.db, made.request.id)).toBe('waiting');
    expect((await call('GET', `/v1/refund-requests/${made.request.id}`, { key: t.test })).body).toMatchObject({
      status: 'PENDING',
      pendingReason: 'awaiting_settlement',
    });
    await t.settle();
    expect((await call('GET', `/v1/invoices/${t.invoice.id}`, { key: t.test })).body.status).toBe('PAID_OUT');
    const before = await balance(t);
    await runAutoRefunds(t.db);
    const done = (await call('GET', `/v1/refund-requests/${made.request.id}`, { key: t.test })).body;
    expect(done).toMatchObject({ status: 'APPROVED', decidedBy: 'policy', pendingReason: null });
    // Issue 30 §2: before, the 3.00 excess cost the merchant its invoice fee (2.97 credited) and the withdrawal fee on top
    // (3.03 debited). Now the invoice fee on it comes back and there is no withdrawal fee: 3.00 − 0.03 leaves the balance
    // exactly as a payment of the price (20.00 at 1 %) would.
    expect(await balance(t)).toBe(new Decimal(before).minus('2.97').toString());
    expect(await balance(t)).toBe('19.8');
    await send();
    expect(await onChain(payer)).toBe('3');

    // A late payment on an expired invoice still waits for the merchant.
    const late = await settledInvoice('10.00', '10.00', { expire: true, ...policyOn });
    const asked = await proposeWithToken(late.db, late.invoice.id, freshAddress());
    expect(await autoRefund(late.db, asked.request.id)).toBe('skipped');
    await runAutoRefunds(late.db);
    expect((await call('GET', `/v1/refund-requests/${asked.request.id}`, { key: late.test })).body).toMatchObject({
      status: 'PENDING',
      pendingReason: 'unpaid_invoice',
      autoRefundAfter: null,
    });
  });

  it('a control that refuses (24 h limit) leaves the proposal to the merchant with the reason', async () => {
    const t = await settledInvoice('20.00', '25.00', policyOn);
    await updateWithdrawalControls(t.db, session(t.owner), controls({ dailyLimit: '1.00' }));
    const made = await proposeWithToken(t.db, t.invoice.id, freshAddress());
    expect(await autoRefund(t.db, made.request.id)).toBe('waiting');
    expect((await call('GET', `/v1/refund-requests/${made.request.id}`, { key: t.test })).body).toMatchObject({
      status: 'PENDING',
      pendingReason: 'withdrawal_limit_exceeded',
    });
  });
});
