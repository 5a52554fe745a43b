import { and, eq, inArray } from 'drizzle-orm';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';
import { erc20Abi, parseUnits, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, gasSpend, withdrawalBatches, withdrawals } from '@/db/schema';
import { tokenArtifact, type AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { startRpcFaultProxy, type RpcFaultProxy } from '@/lib/testing/rpc-fault-proxy';
import { freshAddress } from '@/lib/testing/settled-invoice';
import { withTestChain } from '@/lib/testing/test-chain';
import { ledgerSums } from '@/lib/testing/two-rails';
import { Decimal } from '@/lib/money';
import { fundedTenant } from '@/lib/testing/withdrawal-resources';
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { processWithdrawals, type LaneOptions } from '@/lib/withdrawals/process-withdrawals';

/*
 * Issue 47 §2: EVM payout items go through the disperse contract, `batchCap` per transaction, recorded before
 * broadcast; a reverted batch fails (and refunds) every item of it; crashes and RPC faults never pay twice.
 * Every "paid once" is read from the chain: the Transfer events to each recipient.
 */
let chain: AnvilChain;
let proxy: RpcFaultProxy;
let net: LaneNetwork;
let seq = 0;

withTestChain(async (c) => {
  chain = c;
  await chain.mint(chain.addresses.hot, '1000000');
});
beforeAll(async () => {
  proxy = await startRpcFaultProxy(chain.rpcUrl);
  net = { ...chain.network('test'), rpcUrl: proxy.url } as LaneNetwork;
});
afterAll(() => proxy?.close());

type Tenant = Awaited<ReturnType<typeof fundedTenant>>;

/** A payout of `n` items of 1.00 + k cents each, to fresh addresses. */
async function payout(t: Tenant, n: number) {
  const items = Array.from({ length: n }, (_, i) => ({
    reference: `disperse-${process.pid}-${Date.now()}-${++seq}-${i}`,
    destinationAddress: freshAddress(),
    amount: (1 + i / 100).toFixed(2),
    chain: 'BSC',
    token: 'USDT',
  }));
  const res = await call('POST', '/v1/payouts', { key: t.test, body: { items } });
  expect(res.status, res.text).toBe(201);
  return { id: res.body.id as string, items, withdrawalIds: (res.body.items as { withdrawalId: string }[]).map((i) => i.withdrawalId) };
}

/** Each recipient's Transfer values, read from the chain. */
async function received(to: Address[]) {
  const logs = await chain.client.getContractEvents({ address: chain.token, abi: erc20Abi, eventName: 'Transfer', fromBlock: 0n });
  return to.map((a) => logs.filter((l) => l.args.to!.toLowerCase() === a.toLowerCase()).map((l) => l.args.value!));
}

async function expectPaidOnce(items: { destinationAddress: string; amount: string }[]) {
  const got = await received(items.map((i) => EVM_ADDRESS_CODEC.parse(i.destinationAddress)));
  // The tenant's 1 % fee is on top: each recipient receives exactly its amount, once.
  expect(got).toEqual(items.map((i) => [parseUnits(i.amount, 18)]));
}

async function pass(db: Tenant['db'], opts: LaneOptions = {}) {
  await processWithdrawals(db, net, { retryDelayMs: 0, ...opts }).catch(() => undefined);
}

async function finish(t: Tenant, id: string, opts: LaneOptions = {}) {
  for (let i = 0; i < 30; i++) {
    await pass(t.db, opts);
    await chain.mine(6);
    const view = await call('GET', `/v1/payouts/${id}`, { key: t.test });
    if (view.body.status === 'COMPLETED') return view.body;
  }
  throw new Error('payout did not complete');
}

describe('batch payouts through the disperse contract', () => {
  it('30 items with a cap of 10: three transactions, each recipient paid once, gas recorded per batch', async () => {
    proxy.heal();
    const t = await fundedTenant('100');
    const p = await payout(t, 30);
    await pass(t.db, { batchCap: 10 });
    const rows = await t.db.select().from(withdrawals).where(inArray(withdrawals.id, p.withdrawalIds));
    expect(rows.every((w) => w.status === 'PROCESSING' && w.batchId !== null && w.signedTx !== null)).toBe(true);
    const batchIds = [...new Set(rows.map((w) => w.batchId!))];
    expect(batchIds).toHaveLength(3);
    const batches = await t.db.select().from(withdrawalBatches).where(inArray(withdrawalBatches.id, batchIds));
    expect(batches.map((b) => b.itemCount)).toEqual([10, 10, 10]);
    // Items of a batch share its nonce and hash.
    for (const b of batches)
      expect(new Set(rows.filter((w) => w.batchId === b.id).map((w) => `${w.nonce}:${w.txHash}`))).toEqual(new Set([`${b.nonce}:${b.txHash}`]));
    const done = await finish(t, p.id, { batchCap: 10 });
    expect(done.counts).toMatchObject({ completed: 30, failed: 0 });
    await expectPaidOnce(p.items);
    const spent = await t.db.select().from(gasSpend).where(inArray(gasSpend.referenceId, batchIds));
    expect(spent.map((s) => s.kind)).toEqual(['withdrawal_batch', 'withdrawal_batch', 'withdrawal_batch']);
    const mined = await t.db.select().from(withdrawalBatches).where(inArray(withdrawalBatches.id, batchIds));
    expect(mined.every((b) => b.costWei !== null && BigInt(b.costWei) > 0n)).toBe(true);
  });

  it('a batch that reverts on chain fails every item of it, refunded, with payout.item.failed; the next batch pays', async () => {
    proxy.heal();
    const t = await fundedTenant('100');
    const first = await payout(t, 4);
    const { abi } = tokenArtifact();
    // The token is paused between the record and the broadcast of the batch: that transaction reverts on chain.
    await pass(t.db, {
      beforeBroadcast: async () => {
        await chain.faucet.writeContract({ address: chain.token, abi, functionName: 'pause' });
      },
    });
    await chain.faucet.writeContract({ address: chain.token, abi, functionName: 'unpause' });
    const second = await payout(t, 4);
    const failed = await finish(t, first.id);
    const paid = await finish(t, second.id);
    expect(failed.counts).toMatchObject({ completed: 0, failed: 4 });
    expect(paid.counts).toMatchObject({ completed: 4, failed: 0 });
    // One transaction for the four, and it reverted: every item says so.
    expect(new Set((failed.items as { failureReason: string }[]).map((i) => i.failureReason)).size).toBe(1);
    expect((failed.items as { failureReason: string }[])[0]!.failureReason).toMatch(/reverted on chain/);
    expect((await received(first.items.map((i) => EVM_ADDRESS_CODEC.parse(i.destinationAddress)))).flat()).toEqual([]);
    await expectPaidOnce(second.items);
    const failedEvents = await t.db
      .select()
      .from(events)
      .where(and(eq(events.tenantId, t.tenant.id), eq(events.type, 'payout.item.failed')));
    expect(failedEvents).toHaveLength(4);
    // What the failed items took (amounts + fees) is back: the balance is 100 less the paid items and their fees.
    const spentOnPaid = (paid.items as { amount: string; feeAmount: string }[]).reduce((s, i) => s.plus(i.amount).plus(i.feeAmount), new Decimal(0));
    const [usdt] = await ledgerSums(t.db, t.tenant.id);
    const left = new Decimal(100).minus(spentOnPaid).toFixed(2);
    expect(new Decimal(usdt!.ledger).toFixed(2)).toBe(left);
    expect(new Decimal(usdt!.balance).toFixed(2)).toBe(left);
  });

  it('a crash between store and broadcast: tracking sends the stored batch, each recipient paid once', async () => {
    proxy.heal();
    const t = await fundedTenant('100');
    const p = await payout(t, 12);
    await pass(t.db, {
      batchCap: 6,
      beforeBroadcast: () => {
        throw new Error('crash');
      },
    });
    // The first batch was recorded, never broadcast; the crash ended the pass.
    expect((await received(p.items.map((i) => EVM_ADDRESS_CODEC.parse(i.destinationAddress)))).flat()).toEqual([]);
    const done = await finish(t, p.id, { batchCap: 6 });
    expect(done.counts).toMatchObject({ completed: 12, failed: 0 });
    await expectPaidOnce(p.items);
  });

  it('receipt look-ups failing for many passes, then 30 % of calls failing with every batch replaced: paid once', async () => {
    proxy.heal();
    const t = await fundedTenant('200');
    const p = await payout(t, 20);
    proxy.state.failMethods.add('eth_getTransactionReceipt');
    try {
      for (let i = 0; i < 6; i++) {
        await pass(t.db, { batchCap: 7 });
        await chain.mine(1);
      }
      Object.assign(proxy.state, { failRate: 0.3, hangMs: 200 });
      proxy.state.failMethods.clear();
      for (let i = 0; i < 10; i++) {
        await pass(t.db, { batchCap: 7, stuckAfterMs: 0 });
        await chain.mine(1);
      }
    } finally {
      proxy.heal();
    }
    const done = await finish(t, p.id, { batchCap: 7 });
    expect(done.counts).toMatchObject({ completed: 20, failed: 0 });
    await expectPaidOnce(p.items);
  });

  it('two nodes round-robin, one lagging three blocks: never re-signed, each recipient paid once', async () => {
    proxy.heal();
    const t = await fundedTenant('100');
    const p = await payout(t, 10);
    proxy.state.nodes = [{ lag: 0 }, { lag: 3 }];
    try {
      await pass(t.db, { batchCap: 5 });
      for (let i = 0; i < 6; i++) await pass(t.db, { batchCap: 5 });
      await chain.mine(2);
      for (let i = 0; i < 6; i++) await pass(t.db, { batchCap: 5 });
      const done = await finish(t, p.id, { batchCap: 5 });
      expect(done.counts).toMatchObject({ completed: 10, failed: 0 });
    } finally {
      proxy.heal();
    }
    await expectPaidOnce(p.items);
    const rows = await t.db.select().from(withdrawals).where(inArray(withdrawals.id, p.withdrawalIds));
    expect(rows.every((w) => w.replacedTxHashes.length === 0 && w.sendAttempts === 1)).toBe(true);
  });
});
