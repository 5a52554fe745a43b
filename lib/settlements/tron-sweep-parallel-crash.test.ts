import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RpcReadError } from '@/lib/chain/rpc-batch';
import { invoices, ledgerEntries, settlements, settlementTxs, type SettlementStep } from '@/db/schema';
import { readTronAccount } from '@/lib/chain/tron/resources';
import { readTronStake } from '@/lib/chain/tron/stake';
import { readTrc20Balance } from '@/lib/chain/tron/token-balance';
import { Decimal } from '@/lib/money';
import { createTestTenant } from '@/lib/testing/fixtures';
import { tronPaidSettlement, type TronPaid } from '@/lib/testing/tron-paid-settlement';
import { startTronRail, type TronRail } from '@/lib/testing/tron-rail';
import { runSettlements } from './run-settlements';
import { reclaimSweepResources, type SettleHooks, type SettleNetwork } from './settle-invoice';
import { startTronFaultProxy, type TronFaultProxy } from '@/lib/testing/tron-fault-proxy';

/*
 * Issue 44, "keep the money rules" at volume: TRON sweeps run side by side (each on its own reservation of the energy
 * wallet's stake), so the crash-after-every-step test is run on several sweeps of two tenants at once. Every sweep
 * crashes once at each of ITS OWN steps (the hook is told which settlement), the sweeps overlap, and each resumes to
 * exactly one custody transfer on chain, one credit, and its energy back.
 */
let rail: TronRail;
let proxy: TronFaultProxy;
beforeAll(async () => {
  rail = await startTronRail();
  proxy = await startTronFaultProxy(rail.node.url);
}, 60_000);
afterAll(async () => {
  await proxy?.close();
  await rail?.stop();
});

const usdt = (who: string) => readTrc20Balance(rail.client, rail.node.usdtHex, who);
const paidSettlement = (t: Awaited<ReturnType<typeof createTestTenant>>, amount: string) => tronPaidSettlement(rail, t, amount);
type Paid = TronPaid;

/** Transactions the deposit address signed that reached a block, succeeded or not (only its custody transfer may). */
const sentBy = (deposit: string) =>
  [...rail.node.chain.txs.values()].filter(
    (r) => (r.tx.raw_data.contract[0]?.parameter.value as { owner_address?: string }).owner_address?.toLowerCase() === deposit.toLowerCase(),
  ).length;

/** Successful USDT transfers out of `deposit` on the stand-in's chain: [to (41… hex), units]. */
function transfersFrom(deposit: string): [string, bigint][] {
  const TRANSFER = 'ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
  const from = deposit.toLowerCase().slice(-40);
  return [...rail.node.chain.txs.values()]
    .filter((r) => r.ret === 'SUCCESS')
    .flatMap((r) => r.log)
    .filter((l) => l.address.slice(-40) === rail.node.usdtHex.slice(-40) && l.topics[0] === TRANSFER && l.topics[1]?.slice(-40) === from)
    .map((l) => [`41${l.topics[2]!.slice(-40)}`, BigInt(`0x${l.data}`)]);
}

/**
 * Runs the sweeps side by side until each is credited and its energy is back, crashing once at each step of each
 * sweep where the hook names it; returns the steps each sweep crashed at.
 */
type Where = 'afterStep' | 'beforeBroadcast' | 'onWait';
async function sweepThroughCrashes(ts: Paid[], where: Where) {
  const crashed = new Map<string, SettlementStep[]>(ts.map((t) => [t.settlementId, []]));
  const hooks: SettleHooks = {
    onWait: (step, id) => (where === 'onWait' ? crash(step, id) : rail.node.mine(1)),
    ...(where === 'onWait' ? {} : { [where]: (step: SettlementStep, id: string) => crash(step, id) }),
  };
  // onWait: the step is broadcast and a block is mined, so it is in a block (for the custody transfer: not solidified
  // yet) when the sweep crashes: the window where a resumed sweep could send a second transfer.
  async function crash(step: SettlementStep, id: string) {
    if (where === 'onWait') await rail.node.mine(1);
    const mine = crashed.get(id);
    if (!mine || mine.includes(step)) return;
    mine.push(step);
    throw new Error(`simulated crash at ${step} of ${id}`);
  }
  await sweepAll(ts, rail.net, hooks);
  return crashed;
}

/** Runs the sweeps side by side, pass after pass (as the jobs would), until each is credited and its energy is back. */
async function sweepAll(ts: Paid[], net: SettleNetwork, hooks: SettleHooks) {
  const db = ts[0]!.db;
  const ids = ts.map((t) => t.settlementId);
  const deadline = Date.now() + 150_000;
  for (;;) {
    // Each sweep claimed by its own runner, all at once (only: other test files' TRON settlements are not ours).
    // A failed read in the rail check fails that runner's pass (the job runs again), not the test.
    const pass = (only: string) => runSettlements(db, net, { only, hooks, retry: { maxAttempts: 100, backoffMs: 0 } });
    await Promise.all(
      ids.map((only) =>
        pass(only).catch((e: unknown) => {
          if (!(e instanceof RpcReadError)) throw e;
        }),
      ),
    );
    // The janitor's pass (crashing at its step too); a crash or another file's settlement fails the pass, not the test.
    await reclaimSweepResources(db, net, hooks).catch(() => undefined);
    const done = await db.select().from(settlementTxs).where(inArray(settlementTxs.settlementId, ids));
    if (ids.every((id) => done.some((r) => r.settlementId === id && r.step === 'undelegate' && r.status === 'confirmed'))) break;
    if (Date.now() > deadline) {
      const states = await db.select().from(settlements).where(inArray(settlements.id, ids));
      const left = states.map((s) => [s.id, s.status, s.attempts, s.stakeWaitSince, s.lastError?.slice(0, 200)]);
      throw new Error(
        `never completed: ${JSON.stringify(done.map((r) => [r.settlementId, r.step, r.status]))}; settlements: ${JSON.stringify(left)}`,
      );
    }
    // A sweep waiting for stake other sweeps hold is due again in 2 s: a block meanwhile, then look again.
    await rail.node.mine(1);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The most sweeps at once between the block of their first step and that of their custody transfer. */
async function mostInFlight(ts: Paid[]) {
  const spans = await Promise.all(
    ts.map(async (t) => {
      const rows = await t.db.select().from(settlementTxs).where(eq(settlementTxs.settlementId, t.settlementId));
      const block = (hash: string) => rail.node.chain.txs.get(hash)!.blockNumber;
      const first = Math.min(...rows.filter((r) => r.step !== 'undelegate').map((r) => block(r.txHash)));
      return [first, block(rows.find((r) => r.step === 'custody')!.txHash)] as const;
    }),
  );
  return Math.max(...spans.map(([from, to]) => spans.filter(([a, b]) => a <= to && b >= from).length));
}

async function expectSweptOnce(t: Paid, crashedAt: SettlementStep[] | null, where: Where | null) {
  const rows = await t.db.select().from(settlementTxs).where(eq(settlementTxs.settlementId, t.settlementId));
  const steps = rows.map((r) => r.step).sort();
  expect(steps).toEqual(expect.arrayContaining(['activate', 'delegate', 'custody', 'undelegate']));
  // Crashed once at every step it has, its own, whatever the other sweeps did meanwhile (waiting: every step not
  // already in a block at its first look).
  if (where === 'onWait') expect(crashedAt).toContain('custody');
  else if (crashedAt) expect([...crashedAt].sort()).toEqual(steps);
  // One transaction per step, never re-signed.
  expect(rows.every((r) => r.status === 'confirmed' && r.replacedTxHashes === null)).toBe(true);
  // On chain: exactly one USDT transfer out of the deposit, all of it, to the hot wallet.
  expect(transfersFrom(t.deposit)).toEqual([[rail.node.keys.hot.hex, t.units]]);
  expect(sentBy(t.deposit)).toBe(1);
  expect(await usdt(t.deposit)).toBe(0n);
  const credits = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.referenceId, t.settlementId));
  expect(credits).toHaveLength(1);
  expect(new Decimal(credits[0]!.amount).eq(t.netAmount)).toBe(true);
  const [inv] = await t.db.select().from(invoices).where(eq(invoices.id, t.invoiceId));
  expect(inv!.status).toBe('PAID_OUT');
  const [s] = await t.db.select().from(settlements).where(eq(settlements.id, t.settlementId));
  expect(s!.status).toBe('completed');
  expect((await readTronAccount(rail.client, t.deposit)).energyLimit).toBe(0);
}

describe('parallel TRON sweeps crashed at every step (issue 44)', () => {
  it.each(['afterStep', 'beforeBroadcast', 'onWait'] as const)(
    'four sweeps of two tenants at once, each crashed %s every one of its steps, resume to one custody transfer each',
    async (where) => {
      const a = await createTestTenant({ invoiceFeeRate: '0.01' });
      const b = await createTestTenant({ invoiceFeeRate: '0.01' });
      const ts = [await paidSettlement(a, '3.10'), await paidSettlement(b, '4.20'), await paidSettlement(a, '5.30'), await paidSettlement(b, '6.40')];
      const hot = rail.node.keys.hot.hex;
      const before = { hot: await usdt(hot), delegated: (await readTronStake(rail.client, rail.node.keys.gas.hex)).delegatedEnergySun };

      const crashed = await sweepThroughCrashes(ts, where);
      // The sweeps overlapped on chain: another sweep's steps landed between one's first step and its custody transfer.
      // Not asserted for onWait: crashing in every wait, the sweeps' retries can line their spans up one after another
      // (seen once in a full CI run); the other two modes show the overlap, and the money claims below hold either way.
      if (where !== 'onWait') expect(await mostInFlight(ts)).toBeGreaterThan(1);
      for (const t of ts) await expectSweptOnce(t, crashed.get(t.settlementId)!, where);
      expect((await usdt(hot)) - before.hot).toBe(ts.reduce((sum, t) => sum + t.units, 0n));
      // Every reservation came back: the energy wallet delegates nothing more than before.
      expect((await readTronStake(rail.client, rail.node.keys.gas.hex)).delegatedEnergySun).toBe(before.delegated);
    },
    180_000,
  );

  it('four sweeps at once through a faulty node (every broadcast answer lost once, 1 read in 5 failing, a node 3 blocks behind): one custody transfer each', async () => {
    const a = await createTestTenant({ invoiceFeeRate: '0.01' });
    const b = await createTestTenant({ invoiceFeeRate: '0.01' });
    const ts = [await paidSettlement(a, '7.10'), await paidSettlement(b, '8.20'), await paidSettlement(a, '9.30'), await paidSettlement(b, '10.40')];
    const hot = rail.node.keys.hot.hex;
    const before = await usdt(hot);
    // Every transaction reaches the chain the first time it is broadcast, and its sender is told it failed.
    const lost = new Set<string>();
    proxy.state.loseAnswerWhen = (c) => {
      const id = c.path.endsWith('/broadcasttransaction') ? (c.body?.txID as string | undefined) : undefined;
      if (!id || lost.has(id)) return false;
      lost.add(id);
      return true;
    };
    // 1 read in 5 failing, at random (seeded): every 5th call in lock-step starved the last sweep left, whose attempt
    // made a multiple of 5 reads and so always failed at the same one (520 attempts), which no real node does.
    let seed = 0x2545f491;
    const random = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
    proxy.state.failWhen = (c) => !c.path.endsWith('/broadcasttransaction') && random() < 0.2;
    proxy.state.nodes = [{ lag: 0 }, { lag: 3 }];
    try {
      await sweepAll(ts, { ...rail.net, rpcUrl: proxy.url }, { onWait: () => rail.node.mine(1) });
    } finally {
      proxy.heal();
    }
    expect(lost.size).toBeGreaterThanOrEqual(ts.length * 4);
    expect(await mostInFlight(ts)).toBeGreaterThan(1);
    for (const t of ts) await expectSweptOnce(t, null, null);
    expect((await usdt(hot)) - before).toBe(ts.reduce((sum, t) => sum + t.units, 0n));
  }, 180_000);
});
