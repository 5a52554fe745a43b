import { eq } from 'drizzle-orm';
import { parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, settlementTxs } from '@/db/schema';
import { readTrc20Balance } from '@/lib/chain/tron/token-balance';
import { NETWORK_COST_DEFAULTS } from '@/lib/config/network-costs';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { tronPaidSettlement } from '@/lib/testing/tron-paid-settlement';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import { settleInvoice, type SettleHooks, type SettleNetwork } from './settle-invoice';

/*
 * Issue 42 §2 on TRON (the rule is the shared code's, lib/settlements/plan-sweep.ts): with TRON's default sweep
 * minimum (5.00) and sweep fee (2.00), a 3.00 payment is swept at once and credited less the fee; a 1.50 one is
 * left on its address and not credited. Before, both were credited and left in place for good.
 */
let rail: TronRail;
let net: SettleNetwork;
beforeAll(async () => {
  rail = await startTronRail();
  const { sweepMinimum, sweepFee } = NETWORK_COST_DEFAULTS.TRON;
  net = { ...rail.net, sweepMinimum, sweepFee };
}, 60_000);
afterAll(async () => {
  await rail?.stop();
});

const mining: SettleHooks = { onWait: () => rail.node.mine(1) };
const usdt = (who: string) => readTrc20Balance(rail.client, rail.node.usdtHex, who);

/** A TRON invoice paid in full (USDT minted to its deposit address) and its payout settlement, as the fan-out makes it. */
async function paid(amount: string) {
  const p = await tronPaidSettlement(rail, await createTestTenant({ invoiceFeeRate: '0.01' }), amount);
  return { ...p, id: p.settlementId };
}

describe('TRON: credited only once swept', () => {
  it('3.00 (under the 5.00 minimum) is swept at once, in one transfer to the hot wallet, and credited less the 2.00 sweep fee', async () => {
    const t = await paid('3.00');
    const hot = await usdt(rail.node.keys.hot.hex);
    await settleInvoice(t.db, net, t.id, mining);
    expect(await usdt(t.invoice.depositAddress)).toBe(0n);
    expect((await usdt(rail.node.keys.hot.hex)) - hot).toBe(parseUnits('3', 6));
    const steps = await t.db.select().from(settlementTxs).where(eq(settlementTxs.settlementId, t.id));
    expect(steps.filter((s) => s.step === 'custody')).toHaveLength(1);
    const credits = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.referenceId, t.id));
    expect(credits.map((c) => Number(c.amount))).toEqual([0.97]);
    expect((await call('GET', `/v1/invoices/${t.invoice.id}`, { key: t.test })).body).toMatchObject({
      status: 'PAID_OUT',
      amountCredited: '0.97',
      feeAmount: '2.03',
    });
  });

  it('1.50 (no more than the fee leaves a cent of) is not swept and not credited', async () => {
    const t = await paid('1.50');
    await settleInvoice(t.db, net, t.id, mining);
    expect(await usdt(t.invoice.depositAddress)).toBe(parseUnits('1.5', 6));
    expect(await t.db.select().from(settlementTxs).where(eq(settlementTxs.settlementId, t.id))).toEqual([]);
    expect(await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.referenceId, t.id))).toEqual([]);
    expect((await call('GET', `/v1/invoices/${t.invoice.id}`, { key: t.test })).body).toMatchObject({
      status: 'PAID_OUT',
      amountCredited: '0.00',
      amountUncollected: '1.50',
    });
  });
});
