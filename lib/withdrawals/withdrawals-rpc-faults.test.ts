import { eq } from 'drizzle-orm';
import { erc20Abi, parseUnits, type Address } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withdrawals } from '@/db/schema';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { startRpcFaultProxy, type RpcFaultProxy } from '@/lib/testing/rpc-fault-proxy';
import { withTestChain } from '@/lib/testing/test-chain';
import { fundedTenant } from '@/lib/testing/withdrawal-resources';
import type { LaneNetwork } from './lane-helpers';
import { processWithdrawals } from './process-withdrawals';

let chain: AnvilChain;
let proxy: RpcFaultProxy;
/** The lane pointed at the fault proxy instead of anvil. */
let net: LaneNetwork;
let seq = 0;

withTestChain(async (c) => {
  chain = c;
  await chain.mint(chain.addresses.hot, '100000');
});
beforeAll(async () => {
  proxy = await startRpcFaultProxy(chain.rpcUrl);
  net = { ...chain.network('test'), rpcUrl: proxy.url } as LaneNetwork;
});
afterAll(() => proxy?.close());

const freshAddress = () => privateKeyToAccount(`0x${(BigInt(Date.now()) * 1_000_003n + BigInt(++seq)).toString(16).padStart(64, '0')}`).address;

const transfersTo = async (to: Address) =>
  (await chain.client.getContractEvents({ address: chain.token, abi: erc20Abi, eventName: 'Transfer', args: { to }, fromBlock: 0n })).length;

/** One lane pass as the job runs it; a pass that cannot read the chain may throw, as the job's would. */
async function pass(db: Awaited<ReturnType<typeof fundedTenant>>['db'], opts: Parameters<typeof processWithdrawals>[2] = {}) {
  await processWithdrawals(db, net, { retryDelayMs: 0, ...opts }).catch(() => undefined);
}

describe('withdrawals when chain reads fail or lag', () => {
  it('receipt look-ups failing (HTTP 503) for many passes: the destination receives the amount exactly once, then COMPLETED', async () => {
    proxy.heal();
    const t = await fundedTenant('100');
    const to = freshAddress();
    const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '5.00', destinationAddress: to } });
    expect(res.status).toBe(201);
    proxy.state.failMethods.add('eth_getTransactionReceipt');
    try {
      for (let i = 0; i < 9; i++) {
        await pass(t.db);
        await chain.mine(1);
      }
      expect(await transfersTo(to)).toBe(1);
      const waiting = await call('GET', `/v1/withdrawals/${res.body.id}`, { key: t.test });
      expect(waiting.body.status).toBe('PROCESSING');
      expect(waiting.body.pendingReason).toMatch(/could not be read/i);
    } finally {
      proxy.heal();
    }
    await chain.mine(5);
    await pass(t.db);
    const done = await call('GET', `/v1/withdrawals/${res.body.id}`, { key: t.test });
    expect(await chain.tokenBalance(to)).toBe(parseUnits('5', 18));
    expect(await transfersTo(to)).toBe(1);
    expect(done.body).toMatchObject({ status: 'COMPLETED', pendingReason: null });
  });

  it('30 % of all calls failing or timing out: still exactly one transfer', async () => {
    proxy.heal();
    const t = await fundedTenant('100');
    const to = freshAddress();
    const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '5.00', destinationAddress: to } });
    Object.assign(proxy.state, { failRate: 0.3, hangMs: 200 });
    try {
      for (let i = 0; i < 15; i++) {
        await pass(t.db, { stuckAfterMs: 0 });
        await chain.mine(1);
      }
    } finally {
      proxy.heal();
    }
    for (let i = 0; i < 3; i++) {
      await chain.mine(5);
      await pass(t.db);
    }
    expect(await chain.tokenBalance(to)).toBe(parseUnits('5', 18));
    expect((await call('GET', `/v1/withdrawals/${res.body.id}`, { key: t.test })).body.status).toBe('COMPLETED');
  });

  it('two nodes round-robin, one lagging three blocks: never re-signed, one transfer, then COMPLETED', async () => {
    proxy.heal();
    const t = await fundedTenant('100');
    const to = freshAddress();
    const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '5.00', destinationAddress: to } });
    proxy.state.nodes = [{ lag: 0 }, { lag: 3 }];
    try {
      // No new blocks: the lagging node never sees the transfer's block.
      for (let i = 0; i < 8; i++) await pass(t.db);
      expect(await transfersTo(to)).toBe(1);
      const [w] = await t.db.select().from(withdrawals).where(eq(withdrawals.id, res.body.id));
      expect(w!.sendAttempts).toBe(1);
      await chain.mine(5);
      for (let i = 0; i < 4; i++) await pass(t.db);
    } finally {
      proxy.heal();
    }
    expect(await chain.tokenBalance(to)).toBe(parseUnits('5', 18));
    expect(await transfersTo(to)).toBe(1);
    expect((await call('GET', `/v1/withdrawals/${res.body.id}`, { key: t.test })).body.status).toBe('COMPLETED');
  });

  it('nonce taken by another transaction: waits, visibly, for the confirmations, then re-signs once; one transfer', async () => {
    proxy.heal();
    const t = await fundedTenant('100');
    const to = freshAddress();
    const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '2.00', destinationAddress: to } });
    await processWithdrawals(t.db, net, {
      beforeBroadcast: () => {
        throw new Error('simulated crash');
      },
    }).catch(() => undefined);
    const [stored] = await t.db.select().from(withdrawals).where(eq(withdrawals.id, res.body.id));
    // Someone else uses the hot wallet's key and nonce first (an operator's manual transaction).
    const hot = privateKeyToAccount(chain.keys.hot);
    const other = await hot.signTransaction({
      type: 'legacy',
      chainId: chain.chainId,
      nonce: stored!.nonce!,
      to: hot.address,
      value: 0n,
      gas: 21_000n,
      gasPrice: stored!.gasPrice!,
    });
    await chain.client.sendRawTransaction({ serializedTransaction: other });
    await pass(t.db);
    await pass(t.db);
    const waiting = await call('GET', `/v1/withdrawals/${res.body.id}`, { key: t.test });
    expect(waiting.body).toMatchObject({ status: 'PROCESSING', pendingReason: expect.stringMatching(/not found although nonce \d+ is used/) });
    expect(await transfersTo(to)).toBe(0);
    await chain.mine(5);
    await pass(t.db);
    const [resent] = await t.db.select().from(withdrawals).where(eq(withdrawals.id, res.body.id));
    expect(resent).toMatchObject({ status: 'PROCESSING', sendAttempts: 2, replacedTxHashes: [stored!.txHash] });
    expect(resent!.nonce).not.toBe(stored!.nonce);
    await chain.mine(5);
    await pass(t.db);
    expect((await call('GET', `/v1/withdrawals/${res.body.id}`, { key: t.test })).body.status).toBe('COMPLETED');
    expect(await transfersTo(to)).toBe(1);
    expect(await chain.tokenBalance(to)).toBe(parseUnits('2', 18));
  });
});
