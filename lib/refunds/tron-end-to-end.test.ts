import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices, withdrawals } from '@/db/schema';
import { toBase58 } from '@/lib/chain/tron/address';
import { Decimal } from '@/lib/money';
import { watchTron } from '@/lib/payments/watch-tron';
import { createSettlements } from '@/lib/settlements/create-settlements';
import { runSettlements } from '@/lib/settlements/run-settlements';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { usdtOf } from '@/lib/testing/tron-lane-helpers';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';

/*
 * The whole TRON path on the stand-in, no row written by hand: a payer's wallet (TronWeb) pays a TRON:USDT
 * invoice, the watcher finds it and confirms it once solidified, the jobs sweep it on delegated energy and credit
 * the merchant, the merchant refunds part of it to the payer's T… address, and the lane pays that exactly once.
 * USDT is conserved on the network: what the payer sent is at the hot wallet, the deposit address or back with them.
 */
let rail: TronRail;
beforeAll(async () => {
  rail = await startTronRail();
  await rail.node.mintUsdt(rail.node.keys.other.address, 100_000_000n);
}, 60_000);
afterAll(async () => {
  await rail?.stop();
});

const watch = (db: Parameters<typeof watchTron>[0]) => watchTron(db, rail.net, { baseBackoffMs: 1, maxRetries: 1 });

describe('TRON:USDT end to end', () => {
  it('paid by TronWeb, confirmed once solidified, swept, credited, refunded to the payer exactly once; USDT conserved', async () => {
    const t = await createTestTenant({ invoiceFeeRate: '0.01', withdrawalFeeRate: '0.01' });
    const payer = rail.node.keys.other;
    const payerStart = await usdtOf(rail, payer.address);
    const hotStart = await usdtOf(rail, rail.node.keys.hot.address);
    await watch(t.db);
    const created = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '25.00', chain: 'TRON', token: 'USDT' } });
    expect(created.status, created.text).toBe(201);
    const usdt = await rail.node.tronWeb(payer.privateKey).contract().at(rail.node.usdt);
    await usdt.transfer(created.body.depositAddress, '25000000').send();
    await watch(t.db);
    await rail.node.mine(19);
    await watch(t.db);
    const [inv] = await t.db.select().from(invoices).where(eq(invoices.id, created.body.id));
    expect(inv!.status).toBe('CONFIRMED');

    const ids = await createSettlements(t.db, rail.net);
    expect(ids).toHaveLength(1);
    expect(await runSettlements(t.db, rail.net, { only: ids[0], hooks: { onWait: () => rail.node.mine(1) } })).toEqual({ completed: 1, failed: 0 });
    const balance = await call('GET', '/v1/withdrawals/balance', { key: t.test });
    expect(balance.body).toMatchObject({ available: '24.75' });

    const refund = await call('POST', `/v1/invoices/${inv!.id}/refunds`, {
      key: t.test,
      body: { amount: '10.00', destinationAddress: payer.address },
    });
    expect(refund.status, refund.text).toBe(201);
    for (let i = 0; i < 3; i++) {
      await processWithdrawals(t.db, rail.net);
      await rail.node.mine(19);
    }
    const [w] = await t.db.select().from(withdrawals).where(eq(withdrawals.id, refund.body.id));
    expect(w).toMatchObject({ status: 'COMPLETED', sendAttempts: 1 });
    const refunded = BigInt(new Decimal(w!.netAmount).mul(1e6).toFixed(0));
    // The payer got the refund once; the network fee came out of it (the withdrawal's terms), not the gateway.
    expect(await usdtOf(rail, payer.address)).toBe(payerStart - 25_000_000n + refunded);
    const deposit = await usdtOf(rail, toBase58(inv!.depositAddress));
    const hot = await usdtOf(rail, rail.node.keys.hot.address);
    expect(hot - hotStart + deposit + refunded).toBe(25_000_000n);
  });
});
