import { eq } from 'drizzle-orm';
import { parseUnits } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices, ledgerEntries, settlements, settlementTxs } from '@/db/schema';
import { toBase58 } from '@/lib/chain/tron/address';
import { readTrc20Balance } from '@/lib/chain/tron/token-balance';
import { NETWORK_COST_DEFAULTS } from '@/lib/config/network-costs';
import { newId } from '@/lib/ids';
import { settlementFee } from '@/lib/invoices/fee';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
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
  const t = await createTestTenant({ invoiceFeeRate: '0.01' });
  const res = await call('POST', '/v1/invoices', { key: t.test, body: { amount, chain: 'TRON', token: 'USDT' } });
  expect(res.status, res.text).toBe(201);
  const [inv] = await t.db.select().from(invoices).where(eq(invoices.id, res.body.id));
  await rail.node.mintUsdt(toBase58(inv!.depositAddress), parseUnits(amount, 6));
  const { fee, net: netAmount } = settlementFee(amount, '0.01');
  const id = newId('settlement');
  await t.db.transaction(async (tx) => {
    await tx.update(invoices).set({ status: 'PROCESSING_PAYOUT', amountReceived: amount }).where(eq(invoices.id, inv!.id));
    await tx.insert(settlements).values({
      id,
      invoiceId: inv!.id,
      tenantId: inv!.tenantId,
      mode: 'test',
      chainId: net.chainId,
      token: 'USDT',
      kind: 'invoice',
      amount,
      feeAmount: fee,
      netAmount,
    });
  });
  return { ...t, invoice: inv!, id };
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
