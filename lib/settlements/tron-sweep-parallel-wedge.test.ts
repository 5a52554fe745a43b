import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoices, ledgerEntries, settlements, settlementTxs, type SettlementStep } from '@/db/schema';
import { toBase58 } from '@/lib/chain/tron/address';
import { readTronStake } from '@/lib/chain/tron/stake';
import { readTrc20Balance } from '@/lib/chain/tron/token-balance';
import { Decimal } from '@/lib/money';
import { createTestTenant } from '@/lib/testing/fixtures';
import { tronPaidSettlement, type TronPaid } from '@/lib/testing/tron-paid-settlement';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import { depositOnChain, sweepSideBySide } from '@/lib/testing/tron-sweep-chain';
import type { SettleHooks } from './settle-invoice';

/*
 * Issue 42 §2's sweep wedge (tron-sweep-wedge.test.ts) with sweeps running side by side (issue 44): recorded steps
 * the chain overtook, custody transfers failing on chain and a deposit blacklisted mid-sweep, hitting several
 * sweeps of two tenants at once. Each deposit sends at most one successful USDT transfer, each sweep credits once.
 */
let rail: TronRail;
beforeAll(async () => {
  rail = await startTronRail();
}, 60_000);
afterAll(async () => {
  await rail?.stop();
});

const usdt = (who: string) => readTrc20Balance(rail.client, rail.node.usdtHex, who);
const rowsOf = (t: TronPaid) => t.db.select().from(settlementTxs).where(eq(settlementTxs.settlementId, t.settlementId));
const energyWallet = () => readTronStake(rail.client, rail.node.keys.gas.hex);

async function fourSweepsOfTwoTenants(amounts: string[]) {
  const a = await createTestTenant({ invoiceFeeRate: '0.01' });
  const b = await createTestTenant({ invoiceFeeRate: '0.01' });
  const ts: TronPaid[] = [];
  for (const [i, amount] of amounts.entries()) ts.push(await tronPaidSettlement(rail, i % 2 ? b : a, amount));
  return ts;
}

/** One transfer out, all of it, to the hot wallet; one credit of the net; paid out; its energy back. */
async function expectSweptOnce(t: TronPaid) {
  expect(depositOnChain(rail, t.deposit).transfers).toEqual([[rail.node.keys.hot.hex, t.units]]);
  expect(await usdt(t.deposit)).toBe(0n);
  const credits = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.referenceId, t.settlementId));
  expect(credits).toHaveLength(1);
  expect(new Decimal(credits[0]!.amount).eq(t.netAmount)).toBe(true);
  const [inv] = await t.db.select().from(invoices).where(eq(invoices.id, t.invoiceId));
  expect(inv!.status).toBe('PAID_OUT');
  expect((await readTronStake(rail.client, t.deposit)).acquiredEnergySun).toBe(0n);
  // One custody row: never a second transfer recorded beside the first.
  expect((await rowsOf(t)).filter((r) => r.step === 'custody')).toHaveLength(1);
}

describe('the TRON sweep wedge with sweeps side by side (issue 44)', () => {
  it('four sweeps at once: activations overtaken by strangers are skipped, custody transfers that ran out of energy are planned again, each deposit sends once', async () => {
    const hot = rail.node.keys.hot;
    // The hot wallet holds USDT when the sweeps are planned: each transfer is planned for a holder (~64k energy).
    await rail.node.mintUsdt(hot.address, 5_000_000n);
    const ts = await fourSweepsOfTwoTenants(['20.00', '21.00', '22.00', '23.00']);
    const delegatedBefore = (await energyWallet()).delegatedEnergySun;
    const crashedAtActivate = new Set<string>();
    let emptied: Promise<void> | null = null;
    const emptyHot = async () => {
      const token = await rail.node.tronWeb(hot.privateKey).contract().at(rail.node.usdt);
      await token.transfer(rail.node.keys.fee.address, (await usdt(hot.hex)).toString()).send({ feeLimit: 100_000_000 });
    };
    const hooks: SettleHooks = {
      onWait: () => rail.node.mine(1),
      beforeBroadcast: async (step: SettlementStep, id: string) => {
        // Each sweep crashes once with its activation recorded and not broadcast.
        if (step === 'activate' && !crashedAtActivate.has(id)) {
          crashedAtActivate.add(id);
          throw new Error(`simulated crash at activate of ${id}`);
        }
        // Before the first custody transfer goes out the hot wallet is emptied: to an empty balance a transfer sets
        // a new slot (~130k energy), so whichever transfers run before one lands fail OUT_OF_ENERGY. Every custody
        // transfer goes out after the emptying is broadcast (the stand-in packs its pool in order).
        if (step === 'custody') await (emptied ??= emptyHot());
      },
    };
    const overtaken: TronPaid[] = [];
    await sweepSideBySide(rail, ts, {
      hooks,
      afterPass: async (pass) => {
        if (pass !== 1) return;
        // Meanwhile strangers activate two of the deposits whose activation is recorded: those bytes can never land.
        for (const t of ts) {
          if (overtaken.length < 2 && (await rowsOf(t)).some((r) => r.step === 'activate')) overtaken.push(t);
        }
        for (const t of overtaken) await rail.node.sendTrx(toBase58(t.deposit), 1_000_000);
      },
    });

    expect(overtaken).toHaveLength(2);
    expect(emptied).not.toBeNull();
    for (const t of ts) await expectSweptOnce(t);
    for (const t of overtaken) expect((await rowsOf(t)).find((r) => r.step === 'activate')?.status).toBe('skipped');
    // At least the first custody transfer after the emptying failed on chain and was signed anew (its txID kept).
    const custody = (await Promise.all(ts.map(rowsOf))).flat().filter((r) => r.step === 'custody');
    expect(custody.some((r) => (r.replacedTxHashes ?? []).length > 0)).toBe(true);
    for (const r of custody) expect(r.status).toBe('confirmed');
    // The hot wallet holds exactly the four sweeps: nothing moved twice.
    expect(await usdt(hot.hex)).toBe(ts.reduce((sum, t) => sum + t.units, 0n));
    // Every delegation, the added ones too, came back.
    expect((await energyWallet()).delegatedEnergySun).toBe(delegatedBefore);
  }, 180_000);

  it('a deposit blacklisted while three sweeps run fails alone, uncredited, its energy back; the others are paid out once', async () => {
    const ts = await fourSweepsOfTwoTenants(['15.00', '16.00', '17.00']);
    const [blocked] = ts.splice(1, 1);
    const all = [ts[0]!, blocked!, ts[1]!];
    const delegatedBefore = (await energyWallet()).delegatedEnergySun;
    const hotBefore = await usdt(rail.node.keys.hot.hex);
    const hooks: SettleHooks = {
      onWait: () => rail.node.mine(1),
      beforeBroadcast: async (step: SettlementStep, id: string) => {
        if (step === 'custody' && id === blocked!.settlementId) await rail.node.addBlackList(toBase58(blocked!.deposit));
      },
    };
    // Two attempts: the REVERT, planned again, would still revert; the second attempt fails the settlement for good.
    await sweepSideBySide(rail, all, { hooks, retry: { maxAttempts: 2, backoffMs: 0 } });

    for (const t of ts) await expectSweptOnce(t);
    const [s] = await blocked!.db.select().from(settlements).where(eq(settlements.id, blocked!.settlementId));
    expect(s!.status).toBe('failed');
    expect(s!.lastError).toMatch(/custody transaction \w+ failed: REVERT.*would still revert/);
    expect(depositOnChain(rail, blocked!.deposit).transfers).toEqual([]);
    expect(await usdt(blocked!.deposit)).toBe(blocked!.units);
    expect(await blocked!.db.select().from(ledgerEntries).where(eq(ledgerEntries.referenceId, blocked!.settlementId))).toEqual([]);
    expect((await readTronStake(rail.client, blocked!.deposit)).acquiredEnergySun).toBe(0n);
    expect((await usdt(rail.node.keys.hot.hex)) - hotBefore).toBe(ts.reduce((sum, t) => sum + t.units, 0n));
    expect((await energyWallet()).delegatedEnergySun).toBe(delegatedBefore);
  }, 180_000);
});
