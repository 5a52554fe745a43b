import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, ledgerEntries, withdrawalBatches, withdrawals } from '@/db/schema';
import { setNetworkOverride } from '@/lib/chain/network';
import { Decimal } from '@/lib/money';
import { tokenArtifact, type AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { freshAddress } from '@/lib/testing/settled-invoice';
import { withTestChain } from '@/lib/testing/test-chain';
import { ledgerSums } from '@/lib/testing/two-rails';
import { fundedTenant } from '@/lib/testing/withdrawal-resources';
import { completeWithdrawal } from '@/lib/withdrawals/finish-withdrawal';
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { processWithdrawals, type LaneOptions } from '@/lib/withdrawals/process-withdrawals';
import { payoutResultsCsv } from './payout-csv';
import type { PayoutView } from './schemas';

/*
 * Issue 47 §1 "Pricing": an item of a disperse batch pays the tenant's fee plus its share of the batch's actual
 * cost (cost_wei / items, priced with the gas coin's USD price), never more than the flat network fee reserved
 * when the payout was debited; the difference comes back as a network_fee_refund in the item's completion.
 */
const FLAT = '0.50';
const PRICE = '600';
let chain: AnvilChain;
let seq = 0;

withTestChain(async (c) => {
  chain = c;
  await chain.mint(chain.addresses.hot, '1000000');
});
beforeAll(() => {
  // The API reserves the flat fee of the network as configured.
  setNetworkOverride('test', { ...chain.network('test'), networkFee: FLAT, gasCoinUsd: PRICE });
});
afterAll(() => setNetworkOverride('test', chain.network('test')));

type Tenant = Awaited<ReturnType<typeof fundedTenant>>;
const lane = (gasCoinUsd: string | undefined) => ({ ...chain.network('test'), networkFee: FLAT, gasCoinUsd }) as LaneNetwork;

async function payout(t: Tenant, n: number) {
  const items = Array.from({ length: n }, (_, i) => ({
    reference: `price-${process.pid}-${Date.now()}-${++seq}-${i}`,
    destinationAddress: freshAddress(),
    amount: (1 + i / 100).toFixed(2),
    chain: 'BSC',
    token: 'USDT',
  }));
  const res = await call('POST', '/v1/payouts', { key: t.test, body: { items } });
  expect(res.status, res.text).toBe(201);
  return res.body as PayoutView;
}

async function finish(t: Tenant, id: string, net: LaneNetwork, opts: LaneOptions = {}) {
  for (let i = 0; i < 30; i++) {
    await processWithdrawals(t.db, net, { retryDelayMs: 0, ...opts }).catch(() => undefined);
    await chain.mine(6);
    const view = await call('GET', `/v1/payouts/${id}`, { key: t.test });
    if (view.body.status === 'COMPLETED') return view.body as PayoutView;
  }
  throw new Error('payout did not complete');
}

const refundsOf = (t: Tenant, ids: string[]) =>
  t.db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.kind, 'network_fee_refund'), inArray(ledgerEntries.referenceId, ids)));

async function balanceOf(t: Tenant) {
  const [usdt] = await ledgerSums(t.db, t.tenant.id);
  expect(usdt!.ledger).toBe(usdt!.balance); // the ledger sums to the balance
  return new Decimal(usdt!.balance);
}

/** The tenant's 1 % on an item, in cents half-up (as debited). */
const pct = (amount: string) => new Decimal(amount).times('0.01').toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

describe('batched items pay their share of the batch transaction', () => {
  it('a batch of 6: each item is charged cost/6 in the token, the rest of the flat fee credited back once', async () => {
    const t = await fundedTenant('100');
    const p = await payout(t, 6);
    expect(p.items.every((i) => i.networkFeeReserved === FLAT && i.networkFee === null)).toBe(true);
    const open = await call('GET', `/v1/withdrawals/${p.items[0]!.withdrawalId}`, { key: t.test });
    expect(open.body).toMatchObject({ networkFeeReserved: FLAT, networkFee: null, networkFeeRefunded: '0.00' });
    const done = await finish(t, p.id, lane(PRICE));
    expect(done.counts).toMatchObject({ completed: 6, failed: 0 });
    const ids = done.items.map((i) => i.withdrawalId);
    const rows = await t.db.select().from(withdrawals).where(inArray(withdrawals.id, ids));
    const [batch] = await t.db.select().from(withdrawalBatches).where(eq(withdrawalBatches.id, rows[0]!.batchId!));
    expect(rows.every((w) => w.batchId === batch!.id)).toBe(true);
    expect(batch!.itemCount).toBe(6);
    // Recomputed here from the receipt's cost: BNB per item × 600 USD, up to the cent.
    const share = new Decimal(batch!.costWei!).div(1e18).times(PRICE).div(6).toDecimalPlaces(2, Decimal.ROUND_UP);
    expect(share.gt(0) && share.lt(FLAT)).toBe(true);
    expect(new Decimal(batch!.itemShare!).eq(share)).toBe(true);
    expect(batch!.pricingNote).toBeNull();
    for (const i of done.items) {
      expect(i.networkFeeReserved).toBe(FLAT);
      expect(i.networkFee).toBe(share.toFixed(2));
      expect(i.networkFeeNote).toBeNull();
    }
    const refunds = await refundsOf(t, ids);
    expect(refunds).toHaveLength(6);
    expect(refunds.every((r) => new Decimal(r.amount).eq(new Decimal(FLAT).minus(share)))).toBe(true);
    // Exactly: 100 − amounts − 1 % fees − the flat fees + the refunds.
    const amounts = done.items.reduce((s, i) => s.plus(i.amount), new Decimal(0));
    const fees = done.items.reduce((s, i) => s.plus(pct(i.amount)), new Decimal(0));
    const expected = new Decimal(100).minus(amounts).minus(fees).minus(new Decimal(FLAT).times(6)).plus(new Decimal(FLAT).minus(share).times(6));
    expect((await balanceOf(t)).toFixed()).toBe(expected.toFixed());
    // The event and the results file say what was charged.
    const completed = await t.db
      .select()
      .from(events)
      .where(and(eq(events.tenantId, t.tenant.id), eq(events.type, 'payout.item.completed')));
    expect(completed).toHaveLength(6);
    expect(completed.every((e) => (e.data as Record<string, unknown>).networkFee === share.toFixed(2))).toBe(true);
    expect(completed.every((e) => (e.data as Record<string, unknown>).networkFeeReserved === FLAT)).toBe(true);
    // The item's own withdrawal says the same (issue 47: it showed only the reserved fee).
    const w = await call('GET', `/v1/withdrawals/${ids[0]}`, { key: t.test });
    expect(w.body).toMatchObject({
      networkFeeReserved: FLAT,
      networkFee: share.toFixed(2),
      networkFeeRefunded: new Decimal(FLAT).minus(share).toFixed(2),
    });
    const csv = payoutResultsCsv(done).split('\r\n');
    expect(csv[0]).toContain('feeAmount,networkFeeReserved,networkFee,netAmount');
    expect(csv[1]).toContain(`,${FLAT},${share.toFixed(2)},`);

    // Completion run again (the item made PROCESSING again, as a duplicate tracker pass would find it): nothing more.
    const before = await balanceOf(t);
    await processWithdrawals(t.db, lane(PRICE), { retryDelayMs: 0 });
    await t.db.update(withdrawals).set({ status: 'PROCESSING' }).where(eq(withdrawals.id, ids[0]!));
    expect(await completeWithdrawal(t.db, ids[0]!)).not.toBeNull();
    expect(await refundsOf(t, ids)).toHaveLength(6);
    expect((await balanceOf(t)).eq(before)).toBe(true);
    expect((await call('GET', `/v1/payouts/${p.id}`, { key: t.test })).body.items[0].networkFee).toBe(share.toFixed(2));
  });

  it('no gas coin price: the flat fee is kept, and the batch says why', async () => {
    const t = await fundedTenant('100');
    const p = await payout(t, 3);
    const done = await finish(t, p.id, lane(undefined));
    expect(done.counts).toMatchObject({ completed: 3, failed: 0 });
    for (const i of done.items) {
      expect(i.networkFee).toBe(FLAT);
      expect(i.networkFeeNote).toMatch(/no BNB price \(TEST_BSC_GAS_COIN_USD unset\): the flat network fee is kept/);
    }
    expect(
      await refundsOf(
        t,
        done.items.map((i) => i.withdrawalId),
      ),
    ).toHaveLength(0);
    const spent = done.items.reduce((s, i) => s.plus(i.amount).plus(pct(i.amount)).plus(FLAT), new Decimal(0));
    expect((await balanceOf(t)).toFixed()).toBe(new Decimal(100).minus(spent).toFixed());
  });

  it('a reverted batch refunds everything, with no network_fee_refund and nothing charged', async () => {
    const t = await fundedTenant('100');
    const p = await payout(t, 4);
    const { abi } = tokenArtifact();
    await processWithdrawals(t.db, lane(PRICE), {
      retryDelayMs: 0,
      beforeBroadcast: async () => {
        await chain.faucet.writeContract({ address: chain.token, abi, functionName: 'pause' });
      },
    }).catch(() => undefined);
    await chain.faucet.writeContract({ address: chain.token, abi, functionName: 'unpause' });
    const done = await finish(t, p.id, lane(PRICE));
    expect(done.counts).toMatchObject({ completed: 0, failed: 4 });
    expect(done.items.every((i) => i.networkFee === '0.00' && i.networkFeeReserved === FLAT)).toBe(true);
    const w = await call('GET', `/v1/withdrawals/${done.items[0]!.withdrawalId}`, { key: t.test });
    expect(w.body).toMatchObject({ status: 'FAILED', networkFeeReserved: FLAT, networkFee: '0.00', networkFeeRefunded: '0.00' });
    expect(
      await refundsOf(
        t,
        done.items.map((i) => i.withdrawalId),
      ),
    ).toHaveLength(0);
    expect((await balanceOf(t)).toFixed(2)).toBe('100.00');
  });
});
