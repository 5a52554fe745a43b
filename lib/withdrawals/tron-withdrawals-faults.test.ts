import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withdrawals } from '@/db/schema';
import { tronNodeClient } from '@/lib/chain/tron/node-client';
import { call } from '@/lib/testing/app';
import { startTronFaultProxy, type TronFaultProxy } from '@/lib/testing/tron-fault-proxy';
import { freshTronAddress, usdtOf } from '@/lib/testing/tron-lane-helpers';
import { fundedTenant } from '@/lib/testing/withdrawal-resources';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import type { LaneNetwork } from './lane-helpers';
import { processWithdrawals } from './process-withdrawals';

let rail: TronRail;
let proxy: TronFaultProxy;
/** The lane pointed at the fault proxy instead of the stand-in. */
let net: LaneNetwork;
/** A short timeout, so a hung node ends a pass quickly (the job's is 10 s). */
let client: ReturnType<typeof tronNodeClient>;
beforeAll(async () => {
  rail = await startTronRail();
  await rail.node.mintUsdt(rail.node.keys.hot.address, 1_000_000_000n);
  proxy = await startTronFaultProxy(rail.node.url);
  net = { ...rail.net, rpcUrl: proxy.url };
  client = tronNodeClient({ url: proxy.url, timeoutMs: 500 });
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await rail?.stop();
});

const TRON = { chain: 'TRON', token: 'USDT' } as const;
type T = Awaited<ReturnType<typeof fundedTenant>>;
const rowOf = async (t: T, id: string) => (await t.db.select().from(withdrawals).where(eq(withdrawals.id, id)))[0]!;

/** One lane pass as the job runs it; a pass that cannot read the chain may throw, as the job's would. */
async function pass(t: T, opts: Parameters<typeof processWithdrawals>[2] = {}) {
  await processWithdrawals(t.db, net, { retryDelayMs: 0, tronClient: client, ...opts }).catch(() => undefined);
}

async function withdraw(amount = '5.00') {
  const t = await fundedTenant('100');
  const to = freshTronAddress();
  const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount, destinationAddress: to, ...TRON } });
  expect(res.status, res.text).toBe(201);
  return { t, to, id: res.body.id as string };
}

describe('TRON withdrawals when the node fails, lags or hangs', () => {
  it('transaction look-ups failing (HTTP 503) after the broadcast, past the expiration: nothing re-signed; COMPLETED once they answer', async () => {
    proxy.heal();
    const { t, to, id } = await withdraw();
    await pass(t);
    const sent = await rowOf(t, id);
    expect(sent.status).toBe('PROCESSING');
    proxy.state.failWhen = (c) => c.path.endsWith('/gettransactioninfobyid');
    try {
      for (let i = 0; i < 4; i++) {
        await pass(t);
        await rail.node.mine(25);
      }
      const waiting = await rowOf(t, id);
      expect(waiting).toMatchObject({ status: 'PROCESSING', txHash: sent.txHash, sendAttempts: 1, replacedTxHashes: [] });
      expect(waiting.pendingReason).toMatch(/could not be read/i);
    } finally {
      proxy.heal();
    }
    await pass(t);
    expect(await rowOf(t, id)).toMatchObject({ status: 'COMPLETED', txHash: sent.txHash, sendAttempts: 1, pendingReason: null });
    expect(await usdtOf(rail, to)).toBe(5_000_000n);
  });

  it('a lagging node (110 blocks back, before the transfer) answering the look-ups past the expiration: never re-signed, one transfer, then COMPLETED', async () => {
    proxy.heal();
    const { t, to, id } = await withdraw();
    await pass(t);
    expect(await usdtOf(rail, to)).toBe(5_000_000n);
    // The up-to-date node's solidified block is past the expiration; the lagging one has not seen the transfer.
    await rail.node.mine(100);
    proxy.state.nodes = [{ lag: 0 }, { lag: 110 }];
    try {
      // A balancer sending the transaction look-ups to the lagging node and the rest to the other.
      proxy.state.route = (c) => (c.path.endsWith('/gettransactioninfobyid') ? 1 : 0);
      for (let i = 0; i < 5; i++) await pass(t);
      expect(await rowOf(t, id)).toMatchObject({ status: 'PROCESSING', sendAttempts: 1, replacedTxHashes: [] });
      // Round-robin: whichever node answers, nothing is re-signed.
      proxy.state.route = null;
      for (let i = 0; i < 5; i++) await pass(t);
    } finally {
      proxy.heal();
    }
    expect(await usdtOf(rail, to)).toBe(5_000_000n);
    await pass(t);
    expect(await rowOf(t, id)).toMatchObject({ status: 'COMPLETED', sendAttempts: 1, replacedTxHashes: [] });
    expect(await usdtOf(rail, to)).toBe(5_000_000n);
  });

  it('a hung node (never answers) after the broadcast: passes end on the timeout, nothing re-signed; COMPLETED once it answers', async () => {
    proxy.heal();
    const { t, to, id } = await withdraw();
    await pass(t);
    const sent = await rowOf(t, id);
    proxy.state.hangWhen = () => true;
    try {
      for (let i = 0; i < 3; i++) {
        await pass(t);
        await rail.node.mine(40);
      }
      expect(proxy.hangingCount()).toBeGreaterThan(0);
      expect(await rowOf(t, id)).toMatchObject({ status: 'PROCESSING', txHash: sent.txHash, sendAttempts: 1 });
      expect((await rowOf(t, id)).pendingReason).toMatch(/could not be read.*no answer/i);
      // Then only its transaction look-ups hang, past the expiration.
      proxy.state.hangWhen = (c) => c.path.endsWith('/gettransactioninfobyid');
      for (let i = 0; i < 3; i++) await pass(t);
      expect(await rowOf(t, id)).toMatchObject({ status: 'PROCESSING', txHash: sent.txHash, sendAttempts: 1 });
    } finally {
      proxy.heal();
    }
    await pass(t);
    expect(await rowOf(t, id)).toMatchObject({ status: 'COMPLETED', txHash: sent.txHash, sendAttempts: 1 });
    expect(await usdtOf(rail, to)).toBe(5_000_000n);
  });

  it('a crash between the record and the broadcast: the next pass broadcasts the same bytes; one transfer', async () => {
    proxy.heal();
    const { t, to, id } = await withdraw('3.00');
    await pass(t, {
      beforeBroadcast: () => {
        throw new Error('simulated crash');
      },
    });
    const stored = await rowOf(t, id);
    expect(stored).toMatchObject({ status: 'PROCESSING', broadcastAt: null });
    expect(await usdtOf(rail, to)).toBe(0n);
    await pass(t);
    expect(await usdtOf(rail, to)).toBe(3_000_000n);
    await rail.node.mine(19);
    await pass(t);
    expect(await rowOf(t, id)).toMatchObject({ status: 'COMPLETED', txHash: stored.txHash, sendAttempts: 1 });
    expect(await usdtOf(rail, to)).toBe(3_000_000n);
  });

  it('a transaction left to expire unmined is re-signed only once the solidified chain is past its expiration, and arrives once', async () => {
    proxy.heal();
    const { t, to, id } = await withdraw('4.00');
    rail.node.setPacking(false);
    let first;
    try {
      await pass(t);
      first = await rowOf(t, id);
      expect(first.status).toBe('PROCESSING');
      // The head passes the expiration, the solidified block does not yet: a block holding it could still be the one.
      await rail.node.mine(Math.ceil((first.txExpiration! - (await headTime())) / 3000) + 2);
      expect(await headTime()).toBeGreaterThan(first.txExpiration!);
      await pass(t);
      expect(await rowOf(t, id)).toMatchObject({ status: 'PROCESSING', txHash: first.txHash, sendAttempts: 1 });
      await rail.node.mine(19);
    } finally {
      rail.node.setPacking(true);
    }
    await pass(t);
    const resent = await rowOf(t, id);
    expect(resent).toMatchObject({ status: 'PROCESSING', sendAttempts: 2, replacedTxHashes: [first.txHash] });
    expect(resent.txHash).not.toBe(first.txHash);
    expect(await usdtOf(rail, to)).toBe(4_000_000n);
    await rail.node.mine(19);
    await pass(t);
    expect(await rowOf(t, id)).toMatchObject({ status: 'COMPLETED', txHash: resent.txHash });
    expect(await usdtOf(rail, to)).toBe(4_000_000n);
  });
});

async function headTime(): Promise<number> {
  const b = await rail.client.wallet<{ block_header: { raw_data: { timestamp: number } } }>('getnowblock');
  return b.block_header.raw_data.timestamp;
}
