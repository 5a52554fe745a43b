import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { networkLabel, railLabel } from '@/lib/checkout/network-label';
import { searchConsole } from '@/lib/console/search';
import { CHAIN_SPECS, railId, splitRailId, type RailId, type RailKey } from '@/lib/config/rails';
import { getDb } from '@/lib/db';
import { DEV_RAILS } from '@/lib/dev/dev-rails';
import { Decimal } from '@/lib/money';
import { claimPage } from '@/lib/refunds/claims/claim-page';
import { latestSolvency } from '@/lib/solvency/latest-run';
import { runSolvency } from '@/lib/solvency/run-solvency';
import { call } from '../app';
import { startMatrixChains, type MatrixChain } from './matrix-chains';
import { addressFacts, asTyped, claimOf, expectTokenAmount, expectWireForm, expireInvoice, startRailRun, type RailRun } from './rail-paths';

/*
 * Issue 43 §1: every path a person takes, on every rail the dev stack enables (lib/dev/dev-rails.ts), generated from
 * that list: a rail added there gets every row here, and one whose family has no matrix chain fails (beforeAll, and
 * matrix-coverage.test.ts). Each row asserts what the person sees: the family's address form accepted and shown in its
 * wire form, the other family's refused by name, amounts in the rail's own token and decimals, the network named as
 * the rails table names it. Rows of one rail run in order (later ones use what earlier ones made); networks run side
 * by side (each has its own chain and tenant).
 */

// The server actions behind the no-JavaScript forms, called as Next calls them: a redirect is thrown.
// Each form post from an address of its own: rails run side by side, and the per-address limits are not under test here.
const seq = vi.hoisted(() => ({ ip: 0 }));
vi.mock('next/headers', () => ({
  headers: async () => new Headers({ 'x-forwarded-for': `198.51.100.${++seq.ip % 250}` }),
  cookies: async () => ({ get: () => undefined, set: () => {} }),
}));
vi.mock('next/navigation', () => ({
  redirect: (url: string) => {
    throw Object.assign(new Error('NEXT_REDIRECT'), { redirectTo: url });
  },
}));
vi.mock('next/cache', () => ({ revalidatePath: () => {} }));
const { proposeRefundAddressAction } = await import('@/components/checkout/actions');
const { redeemRefundClaimAction } = await import('@/app/refund-claim/actions');

const form = (fields: Record<string, string>) => {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.set(k, v);
  return f;
};
const redirectOf = (p: Promise<unknown>) =>
  p.then(
    (v) => ({ returned: v }),
    (e: { redirectTo?: string }) => {
      if (!e.redirectTo) throw e;
      return { redirectTo: e.redirectTo };
    },
  );

async function createInvoice(r: RailRun, amount: string) {
  const res = await call('POST', '/v1/invoices', { key: r.key, body: { amount, chain: r.chain, token: r.token } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}
const detail = async (r: RailRun, id: string) => (await call('GET', `/v1/invoices/${id}`, { key: r.key })).body;
const status = async (id: string, claim?: string) => {
  const res = await call('GET', `/api/pay/${id}/status`, { headers: claim ? { 'x-claim-token': claim } : {} });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

/** A paid invoice of `price`, settled by the jobs; answers the invoice and the payer's wire address. */
async function paid(r: RailRun, price: string, pay: string) {
  const inv = await createInvoice(r, price);
  const payer = await r.c.pay(inv.depositAddress, r.token, pay);
  await r.settle();
  return { inv, payer };
}

/** The paths, declared once: each runs on every rail, in this order. */
const PATHS = {
  'create invoice': async (r) => {
    const inv = await createInvoice(r, '100.00');
    expect(inv).toMatchObject({ chain: r.chain, token: r.token, status: 'PENDING', amountExpected: '100.00' });
    expectWireForm(r.chain, inv.depositAddress, 'API deposit address');
    const page = await status(inv.id, claimOf(inv.checkoutUrl));
    expect(page).toMatchObject({ token: r.token, network: networkLabel(r.chain), rail: railLabel(r.chain, r.token), amountExpected: '100.00' });
    expect(page.network).toContain(CHAIN_SPECS[r.chain].name);
    expectWireForm(r.chain, page.depositAddress, 'checkout deposit address');
    expect(page.depositAddress).toBe(inv.depositAddress);
  },
  'pay exactly': async (r) => {
    const { inv } = await paid(r, '100.00', '100');
    const d = await detail(r, inv.id);
    expect(d).toMatchObject({ status: 'PAID_OUT', amountReceived: '100.00', amountCredited: '99.00', feeAmount: '1.00' });
    expect(d.payments[0]).toMatchObject({ chain: r.chain, late: false });
    expectTokenAmount(r.chain, r.token, d.payments[0].amount, '100', 'payment amount');
    expect((await status(inv.id)).status).toBe('PAID_OUT');
  },
  'pay under': async (r) => {
    const inv = await createInvoice(r, '100.00');
    await r.c.pay(inv.depositAddress, r.token, '40');
    await r.settle();
    expect(await detail(r, inv.id)).toMatchObject({ status: 'PARTIALLY_PAID', amountReceived: '40.00' });
    const page = await status(inv.id);
    expect(page).toMatchObject({ status: 'PARTIALLY_PAID', amountReceived: '40.00', remaining: '60.00', token: r.token });
  },
  'pay over': async (r) => {
    // 12.5 and one base unit of the token more: the excess is the payer's to ask back, to the token's last decimal.
    const extra = new Decimal(1).div(new Decimal(10).pow(CHAIN_SPECS[r.chain].tokens[r.token]!.decimals)).toFixed();
    const pay = new Decimal('125.5').plus(extra).toFixed();
    const { inv, payer } = await paid(r, '100.00', pay);
    const d = await detail(r, inv.id);
    expect(d).toMatchObject({ status: 'PAID_OUT', amountReceived: pay });
    // Credited and fee add up to the payment, to the token's last decimal.
    expectTokenAmount(r.chain, r.token, new Decimal(d.amountCredited).plus(d.feeAmount).toFixed(2), new Decimal(pay).toFixed(2), 'credited + fee');
    expect(new Decimal(d.amountCredited).plus(d.feeAmount).toFixed(), `credited ${d.amountCredited} + fee ${d.feeAmount}`).toBe(pay);
    const claim = claimOf(inv.checkoutUrl);
    const page = await status(inv.id, claim);
    expect(page.refund, 'the overpayment can be asked back').toBeTruthy();
    r.state.overpaid = { id: inv.id, claim, payer };
  },
  'pay late': async (r) => {
    const inv = await createInvoice(r, '100.00');
    await expireInvoice(r.db, inv.id);
    // Expiry is judged by the time of the last block the watcher scanned: a block or two after the deadline.
    for (let i = 0; i < 5 && (await detail(r, inv.id)).status !== 'EXPIRED'; i++) {
      await r.c.mine(1);
      await r.jobs();
    }
    expect((await detail(r, inv.id)).status).toBe('EXPIRED');
    await r.c.pay(inv.depositAddress, r.token, '100');
    await r.settle();
    const d = await detail(r, inv.id);
    expect(d).toMatchObject({ status: 'EXPIRED', amountReceived: '100.00', amountCredited: '99.00' });
    expect(d.payments[0].late).toBe(true);
  },
  'held wrong-token payment': async (r, skip) => {
    if (!r.otherToken) return skip(`${CHAIN_SPECS[r.chain].name} has one token in the rails table`);
    const inv = await createInvoice(r, '100.00');
    const payer = await r.c.pay(inv.depositAddress, r.otherToken, '40');
    await r.settle();
    const d = await detail(r, inv.id);
    expect(d.status).toBe('PENDING');
    expect(d.heldPayments[0]).toMatchObject({ token: r.otherToken, status: 'held', fromAddress: payer, chain: r.chain });
    expectWireForm(r.chain, d.heldPayments[0].fromAddress, 'held payment sender');
    expect((await status(inv.id)).heldPayments[0]).toMatchObject({ token: r.otherToken, network: networkLabel(r.chain), amount: '40.00' });
    r.state.held = { invoiceId: inv.id, paymentId: d.heldPayments[0].id, payer, amount: '40' };
  },
  'merchant refund by API': async (r) => {
    const { id } = r.state.overpaid!;
    const { other, refusal } = addressFacts(r.chain);
    const refused = await call('POST', `/v1/invoices/${id}/refunds`, { key: r.key, body: { amount: '6.00', destinationAddress: other } });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.text).toContain(refusal);
    const to = r.c.freshAddress();
    const res = await call('POST', `/v1/invoices/${id}/refunds`, { key: r.key, body: { amount: '6.00', destinationAddress: asTyped(to) } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ chain: r.chain, token: r.token, amount: '6.00', destinationAddress: to });
    const w = await r.sendWithdrawal(res.body.id);
    expect(w.status).toBe('COMPLETED');
    expect(new Decimal(await r.c.held(to, r.token)).eq(w.netAmount), `${to} holds ${w.netAmount} ${r.token}`).toBe(true);
    r.state.withdrawalIds.push(res.body.id);
  },
  'payer proposal with the claim token': async (r) => {
    const { id, claim } = r.state.overpaid!;
    const { other, refusal } = addressFacts(r.chain);
    const wrong = await redirectOf(proposeRefundAddressAction({}, form({ invoiceId: id, address: other, claim })));
    expect(wrong).toMatchObject({ returned: { error: expect.stringContaining(refusal) } });
    const to = r.c.freshAddress();
    const ok = await redirectOf(proposeRefundAddressAction({}, form({ invoiceId: id, address: asTyped(to), claim })));
    // Back to the bare page: the token travels in a path-scoped cookie, never in the URL again (issue 42 §2, referer).
    expect(ok).toEqual({ redirectTo: `/pay/${id}` });
    const page = await status(id, claim);
    expect(page.refund.request).toMatchObject({ status: 'PENDING', destinationAddress: to });
    const bare = await status(id);
    expect(bare.refund.request.destinationAddress).toBe(`${to.slice(0, 6)}…${to.slice(-4)}`);
    r.state.requestId = page.refund.request.id ?? (await call('GET', `/v1/refund-requests?invoiceId=${id}`, { key: r.key })).body.data[0].id;
  },
  approval: async (r) => {
    const { id } = r.state.overpaid!;
    const list = await call('GET', `/v1/refund-requests?invoiceId=${id}`, { key: r.key });
    expect(list.status, list.text).toBe(200);
    const req = list.body.data.find((q: { status: string }) => q.status === 'PENDING');
    expectWireForm(r.chain, req.destinationAddress, 'refund request address');
    const ok = await call('POST', `/v1/refund-requests/${req.id}/approve`, { key: r.key, body: {} });
    expect(ok.status, ok.text).toBe(200);
    const w = await r.sendWithdrawal(ok.body.withdrawalId);
    expect(w).toMatchObject({ status: 'COMPLETED', chain: r.chain, token: r.token, destinationAddress: req.destinationAddress });
    expect(new Decimal(await r.c.held(req.destinationAddress, r.token)).eq(w.netAmount)).toBe(true);
    expect((await status(id, r.state.overpaid!.claim)).refund.refunds.some((x: { to: string }) => x.to === req.destinationAddress)).toBe(true);
  },
  'claim link': async (r) => {
    const { id } = r.state.overpaid!;
    const made = await call('POST', '/v1/refund-claims', { key: r.key, body: { invoiceId: id, amount: '6.00' } });
    expect(made.status, made.text).toBe(201);
    const token = made.body.url.split('/refund-claim/')[1];
    const page = await claimPage(r.db, token);
    expect(page).toMatchObject({ amount: '6.00', rail: `${r.token} on ${CHAIN_SPECS[r.chain].name}` });
    const { other, refusal } = addressFacts(r.chain);
    const wrong = await redeemRefundClaimAction({}, form({ token, address: other }));
    expect(wrong.error).toContain(refusal);
    const to = r.c.freshAddress();
    const done = await redeemRefundClaimAction({}, form({ token, address: asTyped(to) }));
    expect(done).toEqual({ done: { address: to, amount: '6.00' } });
  },
  'withdrawal by API': async (r) => {
    const { other, refusal } = addressFacts(r.chain);
    const body = { amount: '6.00', chain: r.chain, token: r.token };
    const refused = await call('POST', '/v1/withdrawals', { key: r.key, body: { ...body, destinationAddress: other } });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.text).toContain(refusal);
    const to = r.c.freshAddress();
    const res = await call('POST', '/v1/withdrawals', { key: r.key, body: { ...body, destinationAddress: asTyped(to) } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ chain: r.chain, token: r.token, amount: '6.00', destinationAddress: to });
    const w = await r.sendWithdrawal(res.body.id);
    expect(w.status).toBe('COMPLETED');
    expect(new Decimal(await r.c.held(to, r.token)).eq(w.netAmount)).toBe(true);
    r.state.withdrawalIds.push(res.body.id);
  },
  'batch payout by API': async (r) => {
    // Issue 47: a payout item on this rail is paid; the other family's address is its row's refusal, nothing debited.
    const { other, refusal } = addressFacts(r.chain);
    const to = r.c.freshAddress();
    const item = (destinationAddress: string, n: number) => ({
      reference: `rm-${r.chain}-${r.token}-${n}`,
      destinationAddress,
      amount: '6.00',
      chain: r.chain,
      token: r.token,
    });
    const refused = await call('POST', '/v1/payouts', { key: r.key, body: { items: [item(asTyped(to), 1), item(other, 2)] } });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.details).toEqual([expect.objectContaining({ path: 'items[1].destinationAddress', code: 'invalid_address' })]);
    expect(refused.text).toContain(refusal);
    const res = await call('POST', '/v1/payouts', { key: r.key, body: { items: [item(asTyped(to), 1)] } });
    expect(res.status, res.text).toBe(201);
    expect(res.body.items[0]).toMatchObject({ chain: r.chain, token: r.token, amount: '6.00', destinationAddress: to });
    const w = await r.sendWithdrawal(res.body.items[0].withdrawalId);
    expect(w.status).toBe('COMPLETED');
    expect(new Decimal(await r.c.held(to, r.token)).eq(w.netAmount)).toBe(true);
    const done = (await call('GET', `/v1/payouts/${res.body.id}`, { key: r.key })).body;
    expect(done).toMatchObject({ status: 'COMPLETED', counts: { pending: 0, completed: 1, failed: 0 } });
    expectWireForm(r.chain, done.items[0].destinationAddress, 'payout item destination');
    expectTokenAmount(r.chain, r.token, done.items[0].netAmount, '6.00', 'payout item net amount');
  },
  'withdrawal of Max': async (r) => {
    const max = await call('GET', `/v1/withdrawals/max?currency=${r.token}&chain=${r.chain}`, { key: r.key });
    expect(max.status, max.text).toBe(200);
    const balance = (await call('GET', `/v1/withdrawals/balance?currency=${r.token}`, { key: r.key })).body;
    expect(new Decimal(max.body.maxAmount).plus(max.body.estimatedFee).lte(balance.available)).toBe(true);
    const to = r.c.freshAddress();
    const res = await call('POST', '/v1/withdrawals', {
      key: r.key,
      body: { amount: max.body.maxAmount, chain: r.chain, token: r.token, destinationAddress: to },
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.amount).toBe(max.body.maxAmount);
    const after = (await call('GET', `/v1/withdrawals/balance?currency=${r.token}`, { key: r.key })).body;
    expect(new Decimal(after.available).lt('0.01'), `left ${after.available} ${r.token}`).toBe(true);
    expect((await r.sendWithdrawal(res.body.id)).status).toBe('COMPLETED');
  },
  'send-back': async (r, skip) => {
    if (!r.state.held) return skip(`no held payment on ${CHAIN_SPECS[r.chain].name} (one token)`);
    const { invoiceId, paymentId, payer, amount } = r.state.held;
    const res = await call('POST', `/v1/invoices/${invoiceId}/held-payments/${paymentId}/refund`, { key: r.key, body: {} });
    expect(res.status, res.text).toBe(200);
    // Swept off the deposit address first (the jobs), then sent by a withdrawal of its own.
    const heldNow = async () => (await detail(r, invoiceId)).heldPayments.find((h: { id: string }) => h.id === paymentId);
    for (let i = 0; i < 4 && !(await heldNow()).withdrawalId; i++) await r.settle();
    const w = await r.sendWithdrawal((await heldNow()).withdrawalId);
    expect(w).toMatchObject({ status: 'COMPLETED', destinationAddress: payer, token: r.otherToken, chain: r.chain });
    expect(new Decimal(await r.c.held(payer, r.otherToken!)).eq(w.netAmount)).toBe(true);
    expect(new Decimal(w.netAmount).lte(amount)).toBe(true);
    await r.jobs();
    expect(await heldNow()).toMatchObject({ status: 'refunded' });
  },
  'statement row': async (r) => {
    const res = await call('GET', `/v1/balance-transactions?asset=${r.token}&network=${r.chain}`, { key: r.key });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const row of res.body.data) expect(row).toMatchObject({ asset: r.token, network: r.chain });
    const credit = res.body.data.find((x: { type: string }) => x.type === 'payment_credit');
    expect(credit, 'a payment credit').toBeTruthy();
    expect(credit.amount).toMatch(/^\d+\.\d{2,}$/);
    expect(credit.amount.split('.')[1].length, `${credit.amount}: no more decimals than ${r.token} has`).toBeLessThanOrEqual(
      CHAIN_SPECS[r.chain].tokens[r.token]!.decimals,
    );
    const sent = res.body.data.find((x: { sourceId: string }) => x.sourceId === r.state.withdrawalIds[0]);
    expect(sent, 'the refund sent').toBeTruthy();
  },
  'solvency line': async (r) => {
    const db = await getDb();
    await runSolvency(db, { modes: ['test'] }).catch(() => {});
    const view = await latestSolvency(db);
    const line = view.lines.find((l) => l.kind === 'token' && l.mode === 'test' && l.chain === r.chain && l.asset === r.token);
    expect(line, `a ${r.token} line on ${r.chain}`).toBeTruthy();
    expect(line!.status, JSON.stringify(line)).not.toBe('error');
    expect(line!.held).not.toBeNull();
    expect(new Decimal(line!.held!).gt(0)).toBe(true);
  },
  'console search': async (r) => {
    const db = await getDb();
    const inv = await detail(r, r.state.overpaid!.id);
    for (const q of [inv.depositAddress, asTyped(inv.depositAddress)]) {
      const hits = await searchConsole(db, q);
      expect(
        hits.map((h) => h.id),
        `search ${q}`,
      ).toContain(inv.id);
      expect(hits.find((h) => h.id === inv.id)!.summary).toContain(`100.00 ${r.token}`);
    }
    const [wid] = r.state.withdrawalIds;
    const w = (await call('GET', `/v1/withdrawals/${wid}`, { key: r.key })).body;
    for (const q of [w.destinationAddress, w.txHash]) {
      const hits = await searchConsole(db, q);
      expect(
        hits.map((h) => h.id),
        `search ${q}`,
      ).toContain(wid);
      expect(hits.find((h) => h.id === wid)!.summary).toContain(`6.00 ${r.token}`);
    }
  },
} satisfies Record<string, (r: RailRun, skip: (why: string) => void) => Promise<void>>;

export const PATH_NAMES = Object.keys(PATHS) as (keyof typeof PATHS)[];

/** The rails the matrix runs: the dev stack's, or RAIL_MATRIX_RAILS (a comma list) to run a few. */
const RAILS: readonly RailId[] = process.env.RAIL_MATRIX_RAILS ? (process.env.RAIL_MATRIX_RAILS.split(',') as RailId[]) : DEV_RAILS;
const byNetwork = new Map<string, RailKey[]>();
for (const r of RAILS.map(splitRailId)) byNetwork.set(r.chain, [...(byNetwork.get(r.chain) ?? []), r]);

let chains: Map<string, MatrixChain>;
const runs = new Map<RailId, Promise<RailRun>>();
beforeAll(async () => {
  chains = await startMatrixChains(RAILS);
}, 180_000);
afterAll(async () => {
  for (const c of chains?.values() ?? []) await c.stop();
});

const runOf = (rail: RailId) => {
  let run = runs.get(rail);
  const { chain, token } = splitRailId(rail);
  // The network's second token is one the same run enables there (its contract is deployed on the matrix chain).
  const other = RAILS.map(splitRailId).find((x) => x.chain === chain && x.token !== token)?.token;
  if (!run) runs.set(rail, (run = startRailRun({ chain, token }, chains.get(chain)!, other)));
  return run;
};

for (const [network, rails] of byNetwork) {
  // Networks side by side; within one, rails and their rows in order (one chain, one watcher cursor).
  describe.concurrent(`${network}`, () => {
    for (const rail of rails.map(railId)) {
      describe.sequential(rail, () => {
        for (const path of PATH_NAMES) it(`${rail} ${path}`, async ({ skip }) => PATHS[path](await runOf(rail), (why) => skip(why)), 120_000);
      });
    }
  });
}
