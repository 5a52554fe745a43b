import { and, eq, inArray } from 'drizzle-orm';
import type { TronNetwork } from '@/lib/chain/network';
import { formatUnits, parseUnits, type Hex } from 'viem';
import { utils } from 'tronweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gasSpend, invoices, ledgerEntries, settlements, settlementTxs, type SettlementStep } from '@/db/schema';
import { toBase58 } from '@/lib/chain/tron/address';
import { readTronAccount } from '@/lib/chain/tron/resources';
import { readTronStake } from '@/lib/chain/tron/stake';
import { readTrc20Balance } from '@/lib/chain/tron/token-balance';
import { newId } from '@/lib/ids';
import { settlementFee } from '@/lib/invoices/fee';
import { Decimal } from '@/lib/money';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import { watchTron } from '@/lib/payments/watch-tron';
import { readTronWallets } from '@/lib/console/read-tron-wallets';
import { errorLines, networkLines } from '@/lib/solvency/network-lines';
import { readOwedSnapshot } from '@/lib/solvency/owed-snapshot';
import { readTronHoldings } from '@/lib/solvency/read-tron';
import { createSettlements } from './create-settlements';
import { retrySettlement } from './retry-settlement';
import { runSettlements } from './run-settlements';
import { reclaimSweepResources, settleInvoice, type SettleHooks, type SettleNetwork } from './settle-invoice';

let rail: TronRail;
let net: SettleNetwork<TronNetwork>;
/** Every deposit address paid in this file, and what was paid in all (base units): the conservation check. */
const deposits: string[] = [];
let paid = 0n;

beforeAll(async () => {
  rail = await startTronRail();
  net = rail.net;
}, 60_000);
afterAll(async () => {
  await rail?.stop();
});

// The stand-in makes blocks only when asked: each wait for solidification mines one.
const mining: SettleHooks = { onWait: () => rail.node.mine(1) };
const usdt = (who: string) => readTrc20Balance(rail.client, rail.node.usdtHex, who);
const trxOf = async (who: string) => (await readTronAccount(rail.client, who)).balanceSun;

/**
 * A TRON invoice paid in full and CONFIRMED, with the settlement the fan-out makes (PROCESSING_PAYOUT), built
 * directly: the TRON watcher is another branch's. The USDT is minted to the deposit address on the stand-in.
 */
async function paidSettlement(amount: string, opts: { rate?: string; invoice?: string } = {}) {
  const t = await createTestTenant({ invoiceFeeRate: opts.rate ?? '0.01' });
  let invoiceId = opts.invoice;
  if (!invoiceId) {
    const res = await call('POST', '/v1/invoices', { key: t.test, body: { amount, chain: 'TRON', token: 'USDT' } });
    expect(res.status, res.text).toBe(201);
    invoiceId = res.body.id as string;
  }
  const [inv] = await t.db.select().from(invoices).where(eq(invoices.id, invoiceId));
  const units = parseUnits(amount, 6);
  await rail.node.mintUsdt(toBase58(inv!.depositAddress), units);
  if (!deposits.includes(inv!.depositAddress)) deposits.push(inv!.depositAddress);
  paid += units;
  const { fee, net: netAmount } = settlementFee(amount, opts.rate ?? '0.01');
  const id = newId('settlement');
  await t.db.transaction(async (tx) => {
    await tx
      .update(invoices)
      .set({ status: 'PROCESSING_PAYOUT', amountReceived: new Decimal(inv!.amountReceived).add(amount).toFixed() })
      .where(eq(invoices.id, inv!.id));
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
  return { ...t, invoice: inv!, settlementId: id, units, fee, netAmount };
}

const stepsOf = async (db: Awaited<ReturnType<typeof createTestTenant>>['db'], id: string) =>
  db.select().from(settlementTxs).where(eq(settlementTxs.settlementId, id));

/** Settles, crashing once at each step the hook names (a new one each run), until it completes. */
async function settleThroughCrashes(db: Awaited<ReturnType<typeof createTestTenant>>['db'], id: string, where: 'afterStep' | 'beforeBroadcast') {
  const crashed: SettlementStep[] = [];
  for (let run = 0; run < 12; run++) {
    const hooks: SettleHooks = {
      ...mining,
      [where]: (step: SettlementStep) => {
        if (crashed.includes(step)) return;
        crashed.push(step);
        throw new Error(`simulated crash at ${step}`);
      },
    };
    try {
      await settleInvoice(db, net, id, hooks);
      // The energy comes back off the payment's path: the janitor's pass, crashed at its step too.
      await reclaimSweepResources(db, net, hooks);
      return crashed;
    } catch (err) {
      expect(String(err)).toContain('simulated crash');
    }
  }
  throw new Error('never completed');
}

async function expectSweptOnce(t: Awaited<ReturnType<typeof paidSettlement>>, steps: SettlementStep[]) {
  const rows = await stepsOf(t.db, t.settlementId);
  expect(rows.map((r) => r.step).sort()).toEqual([...steps].sort());
  // One transaction per step, never re-signed: nothing was sent twice.
  expect(rows.every((r) => r.status === 'confirmed' && r.replacedTxHashes === null && r.nonce === null)).toBe(true);
  expect(await usdt(t.invoice.depositAddress)).toBe(0n);
  // The deposit address spent no TRX: its transfer ran on delegated energy and free bandwidth.
  expect(await trxOf(t.invoice.depositAddress)).toBe(0n);
  const [custody] = await t.db
    .select()
    .from(gasSpend)
    .where(eq(gasSpend.txHash, rows.find((r) => r.step === 'custody')!.txHash));
  expect(custody).toMatchObject({ kind: 'sweep_custody', costWei: '0' });
  const credits = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.referenceId, t.settlementId));
  expect(credits).toHaveLength(1);
  expect(new Decimal(credits[0]!.amount).eq(t.netAmount)).toBe(true);
  const [inv] = await t.db.select().from(invoices).where(eq(invoices.id, t.invoice.id));
  expect(inv).toMatchObject({ status: 'PAID_OUT' });
  expect(new Decimal(inv!.amountCredited).eq(t.netAmount)).toBe(true);
  expect(new Decimal(inv!.feeAmount).eq(t.fee)).toBe(true);
  // The energy came back: nothing stays delegated to the deposit address.
  expect((await readTronAccount(rail.client, t.invoice.depositAddress)).energyLimit).toBe(0);
}

describe('a TRON sweep paid with delegated energy', () => {
  it('activates, stakes, delegates, sweeps all USDT to the hot wallet in one transfer and undelegates; the deposit spends 0 TRX', async () => {
    const gas = rail.node.keys.gas.hex;
    const hot = rail.node.keys.hot.hex;
    const before = {
      hot: await usdt(hot),
      fee: await usdt(rail.node.keys.fee.hex),
      stake: await readTronStake(rail.client, gas),
      trx: await trxOf(gas),
    };
    const t = await paidSettlement('25.00');
    await settleInvoice(t.db, net, t.settlementId, mining);
    // Credited once the transfer is solidified, the energy still delegated; the janitor takes it back.
    expect((await readTronAccount(rail.client, t.invoice.depositAddress)).energyLimit).toBeGreaterThan(0);
    expect(await reclaimSweepResources(t.db, net, mining)).toBeGreaterThan(0);
    await expectSweptOnce(t, ['activate', 'stake', 'delegate', 'custody', 'undelegate']);
    // Net and fee arrive together at the hot wallet; the fee wallet is paid from there in batches.
    expect((await usdt(hot)) - before.hot).toBe(t.units);
    expect(await usdt(rail.node.keys.fee.hex)).toBe(before.fee);
    const after = await readTronStake(rail.client, gas);
    expect(after.delegatedEnergySun).toBe(before.stake.delegatedEnergySun);
    const [s] = await t.db.select().from(settlements).where(eq(settlements.id, t.settlementId));
    expect(s!.gasPlan).toMatchObject({ kind: 'tron', feeMode: 'delegate' });
    // Who paid what: the energy wallet's TRX went to the stake and to the fees gas_spend records, nothing else.
    const spends = await t.db.select().from(gasSpend).where(eq(gasSpend.referenceId, t.settlementId));
    const burned = spends.reduce((sum, x) => sum + BigInt(x.costWei), 0n);
    expect(spends.find((x) => x.kind === 'sweep_activate')!.costWei).toBe('1100000');
    expect(before.trx - (await trxOf(gas))).toBe(after.stakedEnergySun - before.stake.stakedEnergySun + burned);
  });

  it('crashed after every step, resumes without sending anything twice', async () => {
    const hot = rail.node.keys.hot.hex;
    const before = await usdt(hot);
    const t = await paidSettlement('31.50');
    const crashed = await settleThroughCrashes(t.db, t.settlementId, 'afterStep');
    // The energy stake is there from the first sweep; this one stakes the energy wallet's bandwidth (it has none).
    expect(crashed).toEqual(['activate', 'stake', 'delegate', 'custody', 'undelegate']);
    await expectSweptOnce(t, ['activate', 'stake', 'delegate', 'custody', 'undelegate']);
    const [s] = await t.db.select().from(settlements).where(eq(settlements.id, t.settlementId));
    expect(s!.gasPlan).toMatchObject({ stakeResource: 'BANDWIDTH' });
    expect((await readTronAccount(rail.client, rail.node.keys.gas.hex)).netLimit).toBeGreaterThan(50_000);
    expect((await usdt(hot)) - before).toBe(t.units);
  });

  it("pays the energy wallet's transactions from its staked bandwidth: a sweep burns only the 1 TRX activation fee", async () => {
    const t = await paidSettlement('12.00');
    await settleInvoice(t.db, net, t.settlementId, mining);
    await reclaimSweepResources(t.db, net, mining);
    await expectSweptOnce(t, ['activate', 'delegate', 'custody', 'undelegate']);
    const spends = await t.db.select().from(gasSpend).where(eq(gasSpend.referenceId, t.settlementId));
    // The activation's system fee (getCreateNewAccountFeeInSystemContract) is the only TRX burned: no 0.1 TRX
    // creation bandwidth, no bandwidth for delegate and undelegate.
    expect(Object.fromEntries(spends.map((x) => [x.kind, x.costWei]))).toEqual({
      sweep_activate: '1000000',
      sweep_delegate: '0',
      sweep_custody: '0',
      sweep_undelegate: '0',
    });
  });

  it('several sweeps in parallel, each crashed after every step, resume without sending anything twice', async () => {
    const hot = rail.node.keys.hot.hex;
    const before = await usdt(hot);
    const ts = [await paidSettlement('3.10'), await paidSettlement('4.20'), await paidSettlement('5.30'), await paidSettlement('6.40')];
    // Each step crashes the first time each sweep reaches it (counted per step: as many crashes as sweeps).
    const seen = new Map<SettlementStep, number>();
    const hooks: SettleHooks = {
      ...mining,
      afterStep: (step) => {
        const n = seen.get(step) ?? 0;
        if (n >= ts.length) return;
        seen.set(step, n + 1);
        throw new Error(`simulated crash at ${step}`);
      },
    };
    const db = ts[0]!.db;
    // Pass after pass until all are swept and undelegated: a sweep waiting for stake is due again 2 s later (run
    // alone, this test's sweeps wait for the stake the first one is adding), so a block and a short pause between.
    const deadline = Date.now() + 120_000;
    for (;;) {
      await runSettlements(db, net, { concurrency: ts.length, hooks, retry: { maxAttempts: 100, backoffMs: 0 } });
      await reclaimSweepResources(db, net, hooks).catch((err) => expect(String(err)).toContain('simulated crash'));
      const done = await db.select().from(settlementTxs).where(eq(settlementTxs.step, 'undelegate'));
      if (ts.every((t) => done.some((r) => r.settlementId === t.settlementId && r.status === 'confirmed'))) break;
      expect(Date.now()).toBeLessThan(deadline);
      await rail.node.mine(1);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(seen.get('custody')).toBe(ts.length);
    for (const t of ts) {
      // A sweep planned while the others held the stake stakes its shortfall first.
      const [s] = await t.db.select().from(settlements).where(eq(settlements.id, t.settlementId));
      const staked = s!.gasPlan?.kind === 'tron' && BigInt(s!.gasPlan.stakeSun) > 0n ? (['stake'] as const) : [];
      await expectSweptOnce(t, ['activate', ...staked, 'delegate', 'custody', 'undelegate']);
    }
    expect((await usdt(hot)) - before).toBe(ts.reduce((sum, t) => sum + t.units, 0n));
  });

  it('crashed between recording and broadcasting every step, resumes by broadcasting the recorded bytes', async () => {
    const hot = rail.node.keys.hot.hex;
    const before = await usdt(hot);
    const t = await paidSettlement('12.34');
    const crashed = await settleThroughCrashes(t.db, t.settlementId, 'beforeBroadcast');
    expect(crashed).toEqual(['activate', 'delegate', 'custody', 'undelegate']);
    await expectSweptOnce(t, ['activate', 'delegate', 'custody', 'undelegate']);
    expect((await usdt(hot)) - before).toBe(t.units);
  });

  it('re-signs a recorded transfer only once it is proven expired unmined', async () => {
    const t = await paidSettlement('7.00');
    const crashAtCustody: SettleHooks = {
      ...mining,
      beforeBroadcast: (step) => {
        if (step === 'custody') throw new Error('simulated crash at custody');
      },
    };
    await expect(settleInvoice(t.db, net, t.settlementId, crashAtCustody)).rejects.toThrow('simulated crash');
    const [recorded] = (await stepsOf(t.db, t.settlementId)).filter((r) => r.step === 'custody');
    // Past its 5-minute lifetime and solidified beyond it (3 s blocks): it can never land.
    await rail.node.mine(130);
    await settleInvoice(t.db, net, t.settlementId, mining);
    const [custody] = (await stepsOf(t.db, t.settlementId)).filter((r) => r.step === 'custody');
    expect(custody!.txHash).not.toBe(recorded!.txHash);
    expect(custody!.replacedTxHashes).toEqual([recorded!.txHash]);
    expect(await usdt(t.invoice.depositAddress)).toBe(0n);
  });

  it('credits a payment below the sweep minimum without sweeping it; the next sweep of the address carries it', async () => {
    const dust = await paidSettlement('0.50');
    await settleInvoice(dust.db, net, dust.settlementId, mining);
    const [s] = await dust.db.select().from(settlements).where(eq(settlements.id, dust.settlementId));
    expect(s).toMatchObject({ status: 'completed', sweepDeferred: true });
    expect(await stepsOf(dust.db, dust.settlementId)).toEqual([]);
    expect(await usdt(dust.invoice.depositAddress)).toBe(parseUnits('0.5', 6));
    // A later payment on the same invoice (an extra settlement) sweeps both.
    const more = await paidSettlement('2.00', { invoice: dust.invoice.id });
    await dust.db.update(settlements).set({ kind: 'extra' }).where(eq(settlements.id, more.settlementId));
    await settleInvoice(more.db, net, more.settlementId, mining);
    expect(await usdt(dust.invoice.depositAddress)).toBe(0n);
    const [carried] = await dust.db.select().from(settlements).where(eq(settlements.id, dust.settlementId));
    expect(carried!.carriedBy).toBe(more.settlementId);
  });
});

describe('burning TRX instead of delegating', () => {
  /** The network with an energy wallet of 200 TRX and no stake: delegation is impossible. */
  async function poorNetwork(allowTrxBurn: boolean): Promise<SettleNetwork> {
    const poor = utils.accounts.generateAccount();
    await rail.node.sendTrx(poor.address.base58, 200_000_000);
    return { ...rail.net, gasWalletKey: `0x${poor.privateKey}` as Hex, allowTrxBurn };
  }

  it('is refused with a clear reason on the settlement when not allowed, and works once allowed', async () => {
    const refusing = await poorNetwork(false);
    const t = await paidSettlement('40.00');
    await runSettlements(t.db, refusing, { only: t.settlementId, retry: { maxAttempts: 1, backoffMs: 0 }, hooks: mining });
    const [failed] = await t.db.select().from(settlements).where(eq(settlements.id, t.settlementId));
    expect(failed).toMatchObject({ status: 'failed', gasPlan: null });
    expect(failed!.lastError).toMatch(/cannot pay this sweep's \d+ energy.*TEST_TRON_ALLOW_TRX_BURN=true/);
    expect(await stepsOf(t.db, t.settlementId)).toEqual([]);
    expect(await usdt(t.invoice.depositAddress)).toBe(t.units);

    const burning = { ...refusing, allowTrxBurn: true };
    await retrySettlement(t.db, t.settlementId);
    const hotBefore = await usdt(rail.node.keys.hot.hex);
    await runSettlements(t.db, burning, { only: t.settlementId, hooks: mining });
    const [done] = await t.db.select().from(settlements).where(eq(settlements.id, t.settlementId));
    expect(done).toMatchObject({ status: 'completed', gasPlan: { kind: 'tron', feeMode: 'burn' } });
    expect((await stepsOf(t.db, t.settlementId)).map((r) => r.step).sort()).toEqual(['custody', 'gas_topup']);
    expect((await usdt(rail.node.keys.hot.hex)) - hotBefore).toBe(t.units);
    const spends = await t.db.select().from(gasSpend).where(eq(gasSpend.referenceId, t.settlementId));
    const custody = spends.find((x) => x.kind === 'sweep_custody')!;
    // The deposit burned 100 sun per energy unit of its transfer, from the TRX the energy wallet sent it.
    expect(BigInt(custody.costWei)).toBe(BigInt(custody.gasUsed) * 100n);
    expect(BigInt(custody.costWei)).toBeGreaterThan(5_000_000n);
  });
});

describe('a TRON invoice paid, confirmed by the watcher and settled by the jobs', () => {
  it('is swept and PAID_OUT: found by watchTron, CONFIRMED once solidified, fanned out, settled', async () => {
    const t = await createTestTenant({ invoiceFeeRate: '0.01' });
    await watchTron(t.db, net, { baseBackoffMs: 1, maxRetries: 1 });
    const res = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '18.00', chain: 'TRON', token: 'USDT' } });
    expect(res.status, res.text).toBe(201);
    const [inv] = await t.db.select().from(invoices).where(eq(invoices.id, res.body.id));
    await rail.node.mintUsdt(res.body.depositAddress, 18_000_000n);
    deposits.push(inv!.depositAddress);
    paid += 18_000_000n;
    await watchTron(t.db, net, { baseBackoffMs: 1, maxRetries: 1 });
    await rail.node.mine(19);
    await watchTron(t.db, net, { baseBackoffMs: 1, maxRetries: 1 });
    expect((await t.db.select().from(invoices).where(eq(invoices.id, inv!.id)))[0]!.status).toBe('CONFIRMED');
    // The watcher's window also holds earlier tests' payments (found as late payments): this invoice's settlement.
    const created = await createSettlements(t.db, net);
    const [{ id } = { id: undefined }] = await t.db
      .select({ id: settlements.id })
      .from(settlements)
      .where(and(inArray(settlements.id, created), eq(settlements.invoiceId, inv!.id)));
    expect(id).toBeDefined();
    expect(await runSettlements(t.db, net, { only: id, hooks: mining })).toEqual({ completed: 1, failed: 0 });
    const [after] = await t.db.select().from(invoices).where(eq(invoices.id, inv!.id));
    expect(after!.status).toBe('PAID_OUT');
    expect([after!.amountCredited, after!.feeAmount].map((v) => new Decimal(v).toFixed())).toEqual(['17.82', '0.18']);
    expect(await usdt(inv!.depositAddress)).toBe(0n);
    expect(await trxOf(inv!.depositAddress)).toBe(0n);
  });
});

describe('money on the TRON network', () => {
  it('is conserved: hot + fee wallets + deposit addresses hold exactly what was paid', async () => {
    const held = [rail.node.keys.hot.hex, rail.node.keys.fee.hex, ...deposits];
    const balances = await Promise.all(held.map(usdt));
    expect(balances.reduce((a, b) => a + b, 0n)).toBe(paid);
  });

  it("solvency reads TRON: USDT at the hot wallet and the dust's deposit address, the energy wallet's sweeps against the floor", async () => {
    const db = (await createTestTenant()).db;
    const snap = await readOwedSnapshot(db, 'test');
    const holdings = await readTronHoldings(net, snap.depositAddresses, async () => []);
    const lines = networkLines(net, snap, { withdrawals: new Map(), feeTxs: new Map() }, holdings);
    const token = lines.find((l) => l.kind === 'token')!;
    expect(token).toMatchObject({ chain: 'TRON', asset: 'USDT', status: 'ok', error: null });
    // Everything swept is in the hot wallet (fees included: they move to the fee wallet in batches).
    expect(token.holdings!.find((h) => h.role === 'hot')!.amount).toBe(formatUnits(await usdt(rail.node.keys.hot.hex), 6));
    const energy = lines.find((l) => l.kind === 'gas')!;
    expect(energy).toMatchObject({ asset: 'sweeps', owed: '20', status: 'ok' });
    expect(Number(energy.held)).toBeGreaterThan(100);
    // A node that does not answer is an error, never a zero.
    const dead = { ...net, rpcUrl: 'http://127.0.0.1:9' };
    await expect(readTronHoldings(dead, snap.depositAddresses, async () => [])).rejects.toThrow();
    expect(errorLines(dead, snap, 'down').map((l) => [l.kind, l.asset, l.held])).toEqual([
      ['token', 'USDT', null],
      ['gas', 'sweeps', null],
    ]);
  });

  it("the console shows the energy wallet's TRX, stake and sweeps, and a dead node as unreadable", async () => {
    const w = await readTronWallets(net);
    if (w.state !== 'ok') throw new Error(`unexpected ${w.state}`);
    expect(w.gas!.address).toBe(rail.node.keys.gas.address);
    expect(w.gas!.energy!.sweeps).toBeGreaterThan(100);
    expect(Number(w.gas!.energy!.stakedTrx)).toBeGreaterThan(0);
    expect(w.gas!.low).toBe(false);
    expect(w.hot!.tokens).toEqual([{ asset: 'USDT', amount: formatUnits(await usdt(rail.node.keys.hot.hex), 6) }]);
    // Energy for fewer sweeps than the floor: low.
    const low = await readTronWallets({ ...net, energyLowSweeps: 1_000_000 });
    expect(low.state === 'ok' && low.gas!.low).toBe(true);
    expect((await readTronWallets({ ...net, rpcUrl: 'http://127.0.0.1:9' })).state).toBe('unreadable');
  });
});
