import { and, eq } from 'drizzle-orm';
import { erc20Abi, parseUnits, type Address, type Hex } from 'viem';
import { describe, expect, it } from 'vitest';
import { events, withdrawals } from '@/db/schema';
import type { AnvilChain } from '@/lib/testing/anvil';
import { withTestChain } from '@/lib/testing/test-chain';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { fundedTenant } from '@/lib/testing/withdrawal-resources';
import type { LaneNetwork } from './lane-helpers';
import { processWithdrawals } from './process-withdrawals';
import { getWithdrawalOrThrow } from './get-withdrawal-or-throw';
import { newId } from '@/lib/ids';
import { publicClient } from '@/lib/chain/clients';
import { sleep } from '@/lib/async/sleep';

let chain: AnvilChain;
let net: LaneNetwork;
let seq = 0;

withTestChain(async (c) => {
  chain = c;
  net = c.network('test') as LaneNetwork;
  await chain.mint(chain.addresses.hot, '100000');
});

function freshAddress(): Address {
  return `0x${(BigInt(Date.now()) * 1_000_003n + BigInt(++seq)).toString(16).padStart(40, '0')}` as Address;
}

async function transfersTo(to: Address) {
  return chain.client.getContractEvents({ address: chain.token, abi: erc20Abi, eventName: 'Transfer', args: { to }, fromBlock: 0n });
}

async function settle(id: string, rounds = 3) {
  for (let i = 0; i < rounds; i++) {
    await processWithdrawals((await createTestTenant()).db, net);
    await chain.mine(5);
  }
  await processWithdrawals((await createTestTenant()).db, net);
}

/** A 1.00 withdrawal whose first transaction waits in the pool: automine stays off until `release`. */
async function stuckWithdrawal() {
  const t = await fundedTenant('10');
  const to = freshAddress();
  const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '1.00', destinationAddress: to } });
  const get = () => getWithdrawalOrThrow(t.db, { id: res.body.id, tenantId: t.tenant.id, mode: 'test' });
  const release = () => chain.client.setAutomine(true);
  await chain.client.setAutomine(false);
  try {
    await processWithdrawals(t.db, net);
    return { t, to, get, first: await get(), release };
  } catch (err) {
    await release();
    throw err;
  }
}

describe('USDT withdrawals on a real chain', () => {
  it('the destination receives exactly the amount; the fee stays; COMPLETED with its event', async () => {
    const t = await fundedTenant('100');
    const to = freshAddress();
    const hotBefore = await chain.tokenBalance(chain.addresses.hot);
    const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '25.50', destinationAddress: to } });
    expect(res.status).toBe(201);

    await processWithdrawals(t.db, net);
    const processing = await getWithdrawalOrThrow(t.db, { id: res.body.id, tenantId: t.tenant.id, mode: 'test' });
    expect(processing.status).toBe('PROCESSING');
    expect(processing.txHash).toMatch(/^0x[0-9a-f]{64}$/);

    await chain.mine(5);
    await processWithdrawals(t.db, net);
    const done = await call('GET', `/v1/withdrawals/${res.body.id}`, { key: t.test });
    expect(done.body.status).toBe('COMPLETED');
    expect(done.body.txHash).toBe(processing.txHash);
    expect(await chain.tokenBalance(to)).toBe(parseUnits('25.50', 18));
    expect(hotBefore - (await chain.tokenBalance(chain.addresses.hot))).toBe(parseUnits('25.50', 18));
    expect((await call('GET', '/v1/withdrawals/balance', { key: t.test })).body).toMatchObject({ available: '74.24', pending: '0.00' });
    const types = (await t.db.select().from(events).where(eq(events.subjectId, res.body.id))).map((e) => e.type);
    expect(types).toEqual(['withdrawal.created', 'withdrawal.completed']);
  });

  it('a reverting transfer (token paused) ends FAILED with the full refund and withdrawal.failed', async () => {
    const t = await fundedTenant('10');
    const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '5.00', destinationAddress: freshAddress() } });
    const { abi } = await import('@/lib/testing/anvil').then((m) => m.tokenArtifact());
    await chain.client.waitForTransactionReceipt({ hash: await chain.faucet.writeContract({ address: chain.token, abi, functionName: 'pause' }) });
    try {
      await processWithdrawals(t.db, net);
    } finally {
      await chain.client.waitForTransactionReceipt({
        hash: await chain.faucet.writeContract({ address: chain.token, abi, functionName: 'unpause' }),
      });
    }
    const w = await call('GET', `/v1/withdrawals/${res.body.id}`, { key: t.test });
    expect(w.body.status).toBe('FAILED');
    expect(w.body.failureReason).toMatch(/revert/i);
    expect((await call('GET', '/v1/withdrawals/balance', { key: t.test })).body.available).toBe('10.00');
    const [failed] = await t.db
      .select()
      .from(events)
      .where(and(eq(events.subjectId, res.body.id), eq(events.type, 'withdrawal.failed')));
    expect(failed!.data).toMatchObject({ status: 'FAILED', amount: '5.00' });
  });

  it('a crash between storing and broadcasting resumes with exactly one transfer on chain', async () => {
    const t = await fundedTenant('10');
    const to = freshAddress();
    const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '3.00', destinationAddress: to } });
    await expect(
      processWithdrawals(t.db, net, {
        beforeBroadcast: () => {
          throw new Error('simulated crash');
        },
      }),
    ).rejects.toThrow('simulated crash');
    const stored = await getWithdrawalOrThrow(t.db, { id: res.body.id, tenantId: t.tenant.id, mode: 'test' });
    expect(stored.status).toBe('PROCESSING');
    expect(stored.broadcastAt).toBeNull();
    expect(await transfersTo(to)).toHaveLength(0);
    // Restart: the lane re-broadcasts the stored bytes, then confirms.
    await settle(res.body.id);
    expect((await getWithdrawalOrThrow(t.db, { id: res.body.id, tenantId: t.tenant.id, mode: 'test' })).status).toBe('COMPLETED');
    expect(await transfersTo(to)).toHaveLength(1);
    expect(await chain.tokenBalance(to)).toBe(parseUnits('3', 18));
  });

  it('a crash after broadcast, before the receipt, is reconciled without a second send', async () => {
    const t = await fundedTenant('10');
    const to = freshAddress();
    const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '2.00', destinationAddress: to } });
    await processWithdrawals(t.db, net); // broadcast; the process "dies" before tracking
    await chain.mine(5);
    await settle(res.body.id);
    expect((await getWithdrawalOrThrow(t.db, { id: res.body.id, tenantId: t.tenant.id, mode: 'test' })).status).toBe('COMPLETED');
    expect(await transfersTo(to)).toHaveLength(1);
  });

  it('a stuck transaction is replaced under the same nonce with a higher gas price; one transfer lands', async () => {
    const { t, to, get, first, release } = await stuckWithdrawal();
    try {
      await processWithdrawals(t.db, net, { stuckAfterMs: 0, now: new Date(Date.now() + 1000) });
      const replaced = await get();
      expect(replaced.nonce).toBe(first.nonce);
      expect(replaced.txHash).not.toBe(first.txHash);
      expect(replaced.gasPrice! > first.gasPrice!).toBe(true);
      expect(replaced.replacedTxHashes).toEqual([first.txHash]);
    } finally {
      await release();
    }
    await chain.mine(6);
    await processWithdrawals(t.db, net);
    expect((await get()).status).toBe('COMPLETED');
    expect(await transfersTo(to)).toHaveLength(1);
  });

  it('two lane passes replacing one stuck transaction at once (a run past its lease beside the next): the mined hash is always known; one transfer', async () => {
    const { t, to, get, first, release } = await stuckWithdrawal();
    try {
      // Both passes read the same stuck transaction. One node quotes a high gas price at once; the other is slow
      // and quotes the usual one, so the later replacement is the cheaper one and the node refuses it.
      const real = publicClient(net.rpcUrl);
      const quote = (price: bigint, delayMs: number) =>
        new Proxy(real, {
          get: (target, prop, receiver) => (prop === 'getGasPrice' ? async () => (await sleep(delayMs), price) : Reflect.get(target, prop, receiver)),
        });
      const later = new Date(Date.now() + 1000);
      await Promise.all([
        processWithdrawals(t.db, net, { stuckAfterMs: 0, now: later, client: quote(first.gasPrice! * 3n, 150) }),
        processWithdrawals(t.db, net, { stuckAfterMs: 0, now: later, client: quote(first.gasPrice!, 600) }).catch(() => undefined),
      ]);
    } finally {
      await release();
    }
    await chain.mine(1);
    for (let i = 0; i < 6; i++) {
      await processWithdrawals(t.db, net, { retryDelayMs: 0 }).catch(() => undefined);
      await chain.mine(3);
    }
    expect(await transfersTo(to)).toHaveLength(1);
    expect((await get()).status).toBe('COMPLETED');
  });

  it('the first version mined after a replacement: the withdrawal keeps every hash it ever had (a reorg may still mine the other)', async () => {
    const { t, to, get, first, release } = await stuckWithdrawal();
    let replaced: typeof first;
    try {
      await processWithdrawals(t.db, net, { stuckAfterMs: 0, now: new Date(Date.now() + 1000) });
      replaced = await get();
      // The replacement never reaches a block; the first version does.
      await chain.client.dropTransaction({ hash: replaced.txHash as Hex });
      await chain.client.dropTransaction({ hash: first.txHash as Hex });
      await chain.client.sendRawTransaction({ serializedTransaction: first.signedTx as Hex });
      await chain.mine(1);
    } finally {
      await release();
    }
    await processWithdrawals(t.db, net);
    const tracked = await get();
    expect(tracked.txHash).toBe(first.txHash);
    expect([tracked.txHash, ...tracked.replacedTxHashes].sort()).toEqual([first.txHash, replaced.txHash].sort());
    await chain.mine(6);
    await processWithdrawals(t.db, net);
    expect((await get()).status).toBe('COMPLETED');
    expect(await transfersTo(to)).toHaveLength(1);
  });

  it('stays PENDING with a visible reason while the hot wallet lacks USDT, then sends', async () => {
    const t = await fundedTenant('10');
    const poor = { ...net, hotWalletKey: chain.keys.other } as LaneNetwork;
    const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '4.00', destinationAddress: freshAddress() } });
    await t.db.update(withdrawals).set({ chainId: poor.chainId }).where(eq(withdrawals.id, res.body.id));
    await processWithdrawals(t.db, poor, { retryDelayMs: 0 });
    const waiting = await call('GET', `/v1/withdrawals/${res.body.id}`, { key: t.test });
    expect(waiting.body.status).toBe('PENDING');
    expect(waiting.body.pendingReason).toMatch(/Hot wallet holds 0 USDT, needs 4/);
    await chain.mint(chain.addresses.faucet, '0'); // no-op tx keeps block numbers moving
    await chain.mint((await import('viem/accounts')).privateKeyToAddress(chain.keys.other), '10');
    await processWithdrawals(t.db, poor, { retryDelayMs: 0 });
    await chain.mine(5);
    await processWithdrawals(t.db, poor);
    const sent = await call('GET', `/v1/withdrawals/${res.body.id}`, { key: t.test });
    expect(sent.body.status).toBe('COMPLETED');
    expect(sent.body.pendingReason).toBeNull();
  });

  it("a lane sends only its own mode's withdrawals, even where another mode's share its chain id", async () => {
    const t = await fundedTenant('10');
    const own = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '1.00', destinationAddress: freshAddress() } });
    // A live withdrawal recorded on the test lane's chain (production refuses equal chain ids; the lane must not rely on it).
    const liveTo = freshAddress();
    const [live] = await t.db
      .insert(withdrawals)
      .values({
        chain: 'BSC',
        token: 'USDT',
        id: newId('withdrawal'),
        tenantId: t.tenant.id,
        mode: 'live',
        amount: '1',
        feeAmount: '0.01',
        netAmount: '1',
        destinationAddress: liveTo,
        chainId: net.chainId,
        status: 'PENDING',
      })
      .returning();
    try {
      await processWithdrawals(t.db, net);
      await chain.mine(5);
      await processWithdrawals(t.db, net);
      expect((await getWithdrawalOrThrow(t.db, { id: own.body.id, tenantId: t.tenant.id, mode: 'test' })).status).toBe('COMPLETED');
      const untouched = await getWithdrawalOrThrow(t.db, { id: live!.id, tenantId: t.tenant.id, mode: 'live' });
      expect(untouched).toMatchObject({ status: 'PENDING', txHash: null, signedTx: null, nonce: null });
      expect(await transfersTo(liveTo)).toHaveLength(0);
    } finally {
      await t.db.delete(withdrawals).where(eq(withdrawals.id, live!.id));
    }
  });
});
