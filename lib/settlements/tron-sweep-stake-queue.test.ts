import { eq, inArray } from 'drizzle-orm';
import type { Hex } from 'viem';
import { utils } from 'tronweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, settlements, settlementTxs } from '@/db/schema';
import { toHex41 } from '@/lib/chain/tron/address';
import { TRON_ADDRESS_CODEC } from '@/lib/chain/tron/address-codec';
import { broadcastTronTx } from '@/lib/chain/tron/broadcast';
import { readTronHeads } from '@/lib/chain/tron/read-chain';
import { estimateTrc20Transfer, readTronAccount } from '@/lib/chain/tron/resources';
import { readTronStake } from '@/lib/chain/tron/stake';
import { buildStake, signTronTx } from '@/lib/chain/tron/transactions';
import { readSettlementBacklog } from '@/lib/console/read-settlement-backlog';
import { collectMetrics } from '@/lib/monitoring/collect-metrics';
import { createTestTenant } from '@/lib/testing/fixtures';
import { tronPaidSettlement, type TronPaid } from '@/lib/testing/tron-paid-settlement';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import { SUN, withMargin } from './tron/plan-tron-sweep';
import { sweepsAhead } from './tron/stake-queue';
import { recordSettlementFailure } from './record-settlement-failure';
import { runSettlements } from './run-settlements';
import { reclaimSweepResources, type SettleHooks, type SettleNetwork } from './settle-invoice';

/*
 * Fair queueing when the energy wallet's stake runs short (issue 44): sweeps wait for stake other sweeps hold, and
 * when one sweep's worth comes back it goes to the waiting sweep of the tenant holding the least stake (then the
 * one waiting longest), whoever asks first: a tenant with a burst of sweeps does not take every slot that frees up.
 */
let rail: TronRail;
/** The network with an energy wallet whose stake covers two sweeps and which has no TRX to stake more. */
let net: SettleNetwork;
/** Its address (`41…`). */
let wallet: string;
beforeAll(async () => {
  rail = await startTronRail();
  // The hot wallet holds USDT: every sweep's transfer costs the same energy.
  await rail.node.mintUsdt(rail.node.keys.hot.address, 1n);
}, 60_000);
afterAll(async () => {
  await rail?.stop();
});

const mining: SettleHooks = { onWait: () => rail.node.mine(1) };
const planOf = async (t: TronPaid) => (await t.db.select().from(settlements).where(eq(settlements.id, t.settlementId)))[0]!;

/** A new energy wallet: its 100 TRX reserve, `stakeSun` staked for energy, and 60 TRX for activations and bandwidth. */
async function useEnergyWalletStaking(stakeSun: bigint) {
  const w = utils.accounts.generateAccount();
  await rail.node.sendTrx(w.address.base58, Number(stakeSun + 160n * SUN));
  await rail.node.mine(1);
  const { head } = await readTronHeads(rail.client);
  const from = toHex41(w.address.hex);
  const signed = await signTronTx(
    await buildStake({ from, sun: stakeSun, resource: 'ENERGY', ref: head, lifetimeMs: 60_000 }),
    w.privateKey,
    head.number,
  );
  await broadcastTronTx(rail.client, signed);
  await rail.node.mine(1);
  net = { ...rail.net, gasWalletKey: `0x${w.privateKey}` as Hex, allowTrxBurn: false };
  wallet = from;
}

/** Runs each settlement's sweep, side by side, once (a waiting one is put back in the queue). */
const runOnce = (ts: TronPaid[]) =>
  Promise.all(ts.map((t) => runSettlements(t.db, net, { only: t.settlementId, hooks: mining, retry: { maxAttempts: 100, backoffMs: 0 } })));
/** Due now (a waiting sweep is claimed again 2 s later; the test does not wait for that). */
const dueNow = (ts: TronPaid[]) =>
  ts[0]!.db
    .update(settlements)
    .set({ nextAttemptAt: new Date(Date.now() - 1_000) })
    .where(
      inArray(
        settlements.id,
        ts.map((t) => t.settlementId),
      ),
    );

describe('TRON sweeps waiting for stake queue fairly across tenants', () => {
  it('the stake one sweep gives back goes to the tenant holding none, not to the busy tenant that asked first', async () => {
    const busy = await createTestTenant({ invoiceFeeRate: '0.01' });
    const small = await createTestTenant({ invoiceFeeRate: '0.01' });
    const a = [
      await tronPaidSettlement(rail, busy, '10.00'),
      await tronPaidSettlement(rail, busy, '11.00'),
      await tronPaidSettlement(rail, busy, '12.00'),
    ];

    // Stake for two and a half sweeps, as the planner counts a sweep's stake (its energy + 10 %, + 1 TRX).
    const est = await estimateTrc20Transfer(rail.client, {
      token: rail.node.usdt,
      from: a[0]!.deposit,
      to: TRON_ADDRESS_CODEC.parse(rail.node.keys.hot.address),
      amount: a[0]!.units,
    });
    const perTrx = (await readTronAccount(rail.client, rail.node.keys.hot.hex)).energyPerTrx;
    const perSweep = (BigInt(Math.ceil(withMargin(est.energy) / perTrx)) + 1n) * SUN;
    await useEnergyWalletStaking((perSweep * 5n) / 2n);

    // The busy tenant's three sweeps: two get the stake and are paid out (their energy still delegated), one waits.
    await runOnce(a);
    const planned: TronPaid[] = [];
    for (const t of a) if ((await planOf(t)).gasPlan) planned.push(t);
    expect(planned).toHaveLength(2);
    for (const t of planned) expect((await planOf(t)).status).toBe('completed');
    const waiting = a.find((t) => !planned.includes(t))!;
    expect((await planOf(waiting)).lastError).toMatch(/waiting for the energy wallet's stake/);

    // Another tenant's sweep comes in later and waits too.
    const b = await tronPaidSettlement(rail, small, '5.00');
    await runOnce([b]);
    expect(await planOf(b)).toMatchObject({ gasPlan: null, status: 'processing' });

    // One of the busy tenant's sweeps gives its stake back (the janitor reaches only it): one sweep's worth is free.
    const [keep, give] = planned;
    await reclaimSweepResources(b.db, net, {
      ...mining,
      beforeBroadcast: (_step, id) => {
        if (id === keep!.settlementId) throw new Error('not this one yet');
      },
    }).catch(() => undefined);
    expect((await b.db.select().from(settlementTxs).where(eq(settlementTxs.settlementId, give!.settlementId))).map((r) => r.step)).toContain(
      'undelegate',
    );

    // The busy tenant's waiting sweep asks first, and still waits: the small tenant holds no stake and goes first.
    await dueNow([waiting, b]);
    await runOnce([waiting]);
    expect((await planOf(waiting)).gasPlan).toBeNull();
    expect((await planOf(waiting)).lastError).toMatch(
      /waiting for the energy wallet's stake.*1 sweep of tenants holding less of it, or waiting longer, go first/,
    );
    await runOnce([b]);
    expect(await planOf(b)).toMatchObject({ status: 'completed', gasPlan: { feeMode: 'delegate' } });

    // Once the busy tenant's other sweep gives its stake back, its waiting sweep goes: nobody starves.
    await reclaimSweepResources(b.db, net, mining);
    await dueNow([waiting]);
    await runOnce([waiting]);
    expect(await planOf(waiting)).toMatchObject({ status: 'completed', gasPlan: { feeMode: 'delegate' } });
    await reclaimSweepResources(b.db, net, mining);

    // Every sweep credited once, and the energy wallet delegates nothing.
    for (const t of [...a, b]) {
      const credits = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.referenceId, t.settlementId));
      expect(credits).toHaveLength(1);
      expect((await readTronAccount(rail.client, t.deposit)).energyLimit).toBe(0);
    }
    expect((await readTronStake(rail.client, wallet)).delegatedEnergySun).toBe(0n);
  }, 180_000);

  it('the queue position is its own column: an error text is never taken for one, nor a later error for leaving the queue', async () => {
    const busy = await createTestTenant({ invoiceFeeRate: '0.01' });
    const other = await createTestTenant({ invoiceFeeRate: '0.01' });
    const [a1, a2] = [await tronPaidSettlement(rail, busy, '10.00'), await tronPaidSettlement(rail, busy, '11.00')];
    const est = await estimateTrc20Transfer(rail.client, {
      token: rail.node.usdt,
      from: a1.deposit,
      to: TRON_ADDRESS_CODEC.parse(rail.node.keys.hot.address),
      amount: a1.units,
    });
    const perTrx = (await readTronAccount(rail.client, rail.node.keys.hot.hex)).energyPerTrx;
    const perSweep = (BigInt(Math.ceil(withMargin(est.energy) / perTrx)) + 1n) * SUN;
    // Stake for one and a half sweeps: the first holds it, the second waits for it.
    await useEnergyWalletStaking((perSweep * 3n) / 2n);
    await runOnce([a1]);
    expect(await planOf(a1)).toMatchObject({ status: 'completed', stakeWaitSince: null });
    await runOnce([a2]);
    const waited = await planOf(a2);
    expect(waited).toMatchObject({ gasPlan: null, status: 'processing' });
    expect(waited.stakeWaitSince).toBeInstanceOf(Date);
    const since = waited.stakeWaitSince!;
    // The console and /metrics count the stake queue from the column (the backlog and its age as before).
    const backlog = (await readSettlementBacklog(a2.db)).find((b) => b.chainId === rail.net.chainId);
    expect(backlog).toMatchObject({ chain: 'TRON', stakeQueue: 1 });
    const text = await collectMetrics(a2.db);
    const gauge = (name: string) => Number(new RegExp(`^${name}\\{mode="test",chain="TRON"\\} (\\S+)$`, 'm').exec(text)?.[1]);
    expect(gauge('gateway_settlement_stake_queue')).toBe(1);
    expect(gauge('gateway_settlement_backlog')).toBe(backlog!.open);

    // A later sweep of the same tenant: the waiting one goes first.
    const a3 = await tronPaidSettlement(rail, busy, '12.00');
    const ahead = async () => sweepsAhead(a3.db, (await planOf(a3))!);
    expect(await ahead()).toBe(1n);

    // A sweep that never waited for stake but failed with a message that reads like the queue's: not in the queue.
    const z = await tronPaidSettlement(rail, other, '5.00');
    await recordSettlementFailure(z.db, z.settlementId, new Error("waiting for the energy wallet's stake: not really"), {
      maxAttempts: 5,
      backoffMs: 0,
    });
    expect((await planOf(z)).lastError).toMatch(/^waiting for the energy wallet's stake/);
    expect(await ahead()).toBe(1n);

    // The waiting sweep's next attempt fails for another reason (its last error overwritten): it keeps its place.
    await recordSettlementFailure(a2.db, a2.settlementId, new Error('node read failed'), { maxAttempts: 5, backoffMs: 0 });
    expect(await planOf(a2)).toMatchObject({ lastError: 'node read failed', stakeWaitSince: since });
    expect(await ahead()).toBe(1n);

    // Waiting again keeps the time it first waited; once planned, it leaves the queue.
    await dueNow([a2]);
    await runOnce([a2]);
    expect((await planOf(a2)).stakeWaitSince).toEqual(since);
    await reclaimSweepResources(a2.db, net, mining);
    await dueNow([a2]);
    await runOnce([a2]);
    expect(await planOf(a2)).toMatchObject({ status: 'completed', stakeWaitSince: null, gasPlan: { feeMode: 'delegate' } });
    expect(await ahead()).toBe(0n);

    // A waiting sweep that fails for good leaves the queue: a retry from the console must wait again to get back in.
    await runOnce([a3]);
    expect((await planOf(a3)).stakeWaitSince).toBeInstanceOf(Date);
    await recordSettlementFailure(a3.db, a3.settlementId, new Error('given up'), { maxAttempts: 0, backoffMs: 0 });
    expect(await planOf(a3)).toMatchObject({ status: 'failed', stakeWaitSince: null });
    await reclaimSweepResources(a2.db, net, mining);
  }, 180_000);
});
