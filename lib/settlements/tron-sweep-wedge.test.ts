import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gasSpend, invoices, ledgerEntries, settlements, settlementTxs } from '@/db/schema';
import { toBase58 } from '@/lib/chain/tron/address';
import { readTronStake } from '@/lib/chain/tron/stake';
import { readTrc20Balance } from '@/lib/chain/tron/token-balance';
import { Decimal } from '@/lib/money';
import { createTestTenant } from '@/lib/testing/fixtures';
import { tronPaidSettlement } from '@/lib/testing/tron-paid-settlement';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import { runSettlements } from './run-settlements';
import { reclaimSweepResources, settleInvoice, type SettleHooks } from './settle-invoice';

/** Issue 42 §2, "TRON sweep wedge": sweeps that used to fail on every resume, and energy never given back. */
let rail: TronRail;
beforeAll(async () => {
  rail = await startTronRail();
}, 60_000);
afterAll(async () => {
  await rail?.stop();
});

const mining: SettleHooks = { onWait: () => rail.node.mine(1) };
const usdt = (who: string) => readTrc20Balance(rail.client, rail.node.usdtHex, who);

/** A confirmed TRON invoice with its settlement (as the fan-out makes it), the USDT minted to its deposit address. */
const paidSettlement = async (amount: string) => tronPaidSettlement(rail, await createTestTenant({ invoiceFeeRate: '0.01' }), amount);

const rowsOf = async (t: Awaited<ReturnType<typeof paidSettlement>>) =>
  t.db.select().from(settlementTxs).where(eq(settlementTxs.settlementId, t.settlementId));

async function expectCreditedOnce(t: Awaited<ReturnType<typeof paidSettlement>>) {
  const credits = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.referenceId, t.settlementId));
  expect(credits).toHaveLength(1);
  expect(new Decimal(credits[0]!.amount).eq(t.netAmount)).toBe(true);
  const [inv] = await t.db.select().from(invoices).where(eq(invoices.id, t.invoice.id));
  expect(inv!.status).toBe('PAID_OUT');
  expect(await usdt(t.invoice.depositAddress)).toBe(0n);
}

describe('a TRON sweep whose recorded step the chain overtook', () => {
  it('skips a recorded activation once someone else activated the address, and completes', async () => {
    const t = await paidSettlement('20.00');
    const crashAtActivate: SettleHooks = {
      ...mining,
      beforeBroadcast: (step) => {
        if (step === 'activate') throw new Error('simulated crash at activate');
      },
    };
    await expect(settleInvoice(t.db, rail.net, t.settlementId, crashAtActivate)).rejects.toThrow('simulated crash');
    // Meanwhile a stranger sends the deposit address 1 TRX: the recorded AccountCreate can never land now.
    await rail.node.sendTrx(toBase58(t.invoice.depositAddress), 1_000_000);
    const hot = await usdt(rail.node.keys.hot.hex);
    await settleInvoice(t.db, rail.net, t.settlementId, mining);
    await expectCreditedOnce(t);
    expect((await usdt(rail.node.keys.hot.hex)) - hot).toBe(t.units);
    const activate = (await rowsOf(t)).find((r) => r.step === 'activate')!;
    expect(activate.status).toBe('skipped');
    // Nothing was paid for the activation that did not happen.
    expect(await t.db.select().from(gasSpend).where(eq(gasSpend.txHash, activate.txHash))).toEqual([]);
    await reclaimSweepResources(t.db, rail.net, mining);
    expect((await readTronStake(rail.client, t.invoice.depositAddress)).acquiredEnergySun).toBe(0n);
  });
});

describe('a TRON custody transfer that failed on chain', () => {
  it('OUT_OF_ENERGY (the hot wallet emptied after planning) is planned again with more energy, and sent once more', async () => {
    const hot = rail.node.keys.hot;
    await rail.node.mintUsdt(hot.address, 5_000_000n);
    const t = await paidSettlement('30.00');
    const before = await readTronStake(rail.client, rail.node.keys.gas.hex);
    let emptied = false;
    const emptyHot: SettleHooks = {
      ...mining,
      beforeBroadcast: async (step) => {
        if (step !== 'custody' || emptied) return;
        emptied = true;
        // The transfer was planned for a holder (~64k energy); to an empty balance it sets a new slot (~130k).
        const tw = rail.node.tronWeb(hot.privateKey);
        const token = await tw.contract().at(rail.node.usdt);
        await token.transfer(rail.node.keys.fee.address, (await usdt(hot.hex)).toString()).send({ feeLimit: 100_000_000 });
      },
    };
    await settleInvoice(t.db, rail.net, t.settlementId, emptyHot);
    expect(emptied).toBe(true);
    await expectCreditedOnce(t);
    expect(await usdt(hot.hex)).toBe(t.units);
    const custody = (await rowsOf(t)).find((r) => r.step === 'custody')!;
    expect(custody.status).toBe('confirmed');
    expect(custody.replacedTxHashes).toHaveLength(1);
    const [failed] = await t.db.select().from(gasSpend).where(eq(gasSpend.txHash, custody.replacedTxHashes![0]!));
    expect(failed).toMatchObject({ kind: 'sweep_custody' });
    // All the energy lent, the first delegation and the one added, comes back.
    await reclaimSweepResources(t.db, rail.net, mining);
    expect((await readTronStake(rail.client, t.invoice.depositAddress)).acquiredEnergySun).toBe(0n);
    expect((await readTronStake(rail.client, rail.node.keys.gas.hex)).delegatedEnergySun).toBe(before.delegatedEnergySun);
  });

  it('REVERT (the deposit blacklisted) fails the settlement for good, and the janitor takes the energy back', async () => {
    const t = await paidSettlement('15.00');
    const before = await readTronStake(rail.client, rail.node.keys.gas.hex);
    const blacklist: SettleHooks = {
      ...mining,
      beforeBroadcast: async (step) => {
        if (step === 'custody') await rail.node.addBlackList(toBase58(t.invoice.depositAddress));
      },
    };
    await runSettlements(t.db, rail.net, { only: t.settlementId, hooks: blacklist, retry: { maxAttempts: 1, backoffMs: 0 } });
    const [s] = await t.db.select().from(settlements).where(eq(settlements.id, t.settlementId));
    expect(s!.status).toBe('failed');
    expect(s!.lastError).toMatch(/custody transaction \w+ failed: REVERT.*would still revert/);
    expect((await readTronStake(rail.client, t.invoice.depositAddress)).acquiredEnergySun).toBeGreaterThan(0n);
    expect(await reclaimSweepResources(t.db, rail.net, mining)).toBeGreaterThan(0);
    expect((await rowsOf(t)).find((r) => r.step === 'undelegate')?.status).toBe('confirmed');
    expect((await readTronStake(rail.client, t.invoice.depositAddress)).acquiredEnergySun).toBe(0n);
    expect((await readTronStake(rail.client, rail.node.keys.gas.hex)).delegatedEnergySun).toBe(before.delegatedEnergySun);
    // Nothing moved and nothing was credited.
    expect(await usdt(t.invoice.depositAddress)).toBe(t.units);
    expect(await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.referenceId, t.settlementId))).toEqual([]);
  });
});
