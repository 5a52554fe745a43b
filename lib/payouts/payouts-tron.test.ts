import { parseUnits } from 'viem';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withdrawals } from '@/db/schema';
import { call } from '@/lib/testing/app';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import { freshTronAddress, usdtOf } from '@/lib/testing/tron-lane-helpers';
import { fundedTenant } from '@/lib/testing/withdrawal-resources';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';

/*
 * Issue 47 §2 on TRON: one transaction per item (no batch primitive), sent side by side (no nonces), each
 * recorded before its broadcast. A 20-item payout on the stand-in pays each recipient exactly once.
 */
let rail: TronRail;
beforeAll(async () => {
  rail = await startTronRail();
  await rail.node.mintUsdt(rail.node.keys.hot.address, 1_000_000_000n);
}, 60_000);
afterAll(async () => {
  await rail?.stop();
});

describe('a TRON payout', () => {
  it('20 items: sent side by side, each recorded before its broadcast, each recipient paid exactly once', async () => {
    const t = await fundedTenant('400');
    const items = Array.from({ length: 20 }, (_, i) => ({
      reference: `tron-payout-${process.pid}-${Date.now()}-${i}`,
      destinationAddress: freshTronAddress(),
      amount: (5 + i / 10).toFixed(2),
      chain: 'TRON',
      token: 'USDT',
    }));
    const res = await call('POST', '/v1/payouts', { key: t.test, body: { items } });
    expect(res.status, res.text).toBe(201);
    const ids = (res.body.items as { withdrawalId: string }[]).map((i) => i.withdrawalId);
    let inFlight = 0;
    let widest = 0;
    const recordedFirst: boolean[] = [];
    await processWithdrawals(t.db, rail.net, {
      // Runs after the record, before the broadcast: the row is PROCESSING with its transaction, not on chain yet.
      beforeBroadcast: async (w) => {
        inFlight++;
        widest = Math.max(widest, inFlight);
        recordedFirst.push(w.status === 'PROCESSING' && w.txHash !== null && w.signedTx !== null);
        await new Promise((r) => setImmediate(r));
        inFlight--;
      },
    });
    expect(recordedFirst).toEqual(Array(20).fill(true));
    expect(widest).toBeGreaterThan(1);
    const rows = await t.db.select().from(withdrawals).where(inArray(withdrawals.id, ids));
    expect(new Set(rows.map((w) => w.txHash)).size).toBe(20);
    expect(rows.every((w) => w.nonce === null && w.batchId === null)).toBe(true);
    for (let i = 0; i < 10; i++) {
      await rail.node.mine(19);
      await processWithdrawals(t.db, rail.net);
      const view = await call('GET', `/v1/payouts/${res.body.id}`, { key: t.test });
      if (view.body.status === 'COMPLETED') break;
    }
    const done = await call('GET', `/v1/payouts/${res.body.id}`, { key: t.test });
    expect(done.body).toMatchObject({ status: 'COMPLETED', counts: { completed: 20, failed: 0 } });
    // Read from the chain: each holds exactly its amount (6 decimals), after extra passes too.
    await processWithdrawals(t.db, rail.net);
    const held = await Promise.all(items.map((i) => usdtOf(rail, i.destinationAddress)));
    expect(held).toEqual(items.map((i) => parseUnits(i.amount, 6)));
    // 20 payouts validated, sent and solidified on a stand-in: a minute on a loaded 2-core machine.
  }, 180_000);
});
