/**
 * TRON sweeps at volume (issue 44), on the TRON stand-in with 3 s blocks and 19 blocks to solidify (as mainnet):
 * N payments of USDT (default 100) sent within one minute to N invoices of 4 tenants, found by the watcher,
 * confirmed once solidified, fanned out and swept in parallel by runSettlements (settleConcurrency), the energy
 * taken back by the janitor. Prints p50 / p95 / max from the payment's broadcast to paid_out (the settlement's
 * completion, the transaction that writes invoice.paid_out) and the TRX burned per sweep (gas_spend).
 *   npx tsx bench/tron-volume.ts [payments=100] [seconds to send them in=60] [sweeps in flight=settleConcurrency]
 */
import { loadavg } from 'node:os';
import { inArray, sql } from 'drizzle-orm';
import { startProfile } from './lib/db-profile';
import { printTable, withBenchDatabase, type Row } from './lib/harness';

const PAYMENTS = Number(process.argv[2] ?? 100);
const SPREAD_S = Number(process.argv[3] ?? 60);
const TENANTS = 4;
const CONCURRENCY = process.argv[4] ? Number(process.argv[4]) : undefined;

await withBenchDatabase(async () => {
  const { getDb } = await import('@/lib/db');
  const { chainTransfers, gasSpend, settlements, settlementTxs } = await import('@/db/schema');
  const { tronRailOn } = await import('@/lib/testing/tron-rail');
  const { startTronNodeProcess } = await import('./lib/tron-node-process');
  const { createTestTenant } = await import('@/lib/testing/fixtures');
  const { call } = await import('@/lib/testing/app');
  const { watchTron } = await import('@/lib/payments/watch-tron');
  const { createSettlements } = await import('@/lib/settlements/create-settlements');
  const { runSettlements } = await import('@/lib/settlements/run-settlements');
  const { reclaimSweepResources, settleConcurrency } = await import('@/lib/settlements/settle-invoice');
  const db = await getDb();
  // The stand-in in its own process (bench/lib/tron-node-process.ts); STANDIN_IN_PROCESS=1: in this one, as before.
  const { startTronRail } = await import('@/lib/testing/tron-rail');
  const node = process.env.STANDIN_IN_PROCESS === '1' ? (await startTronRail({ node: { blockTimeMs: 3000 } })).node : await startTronNodeProcess();
  const rail = { node, ...(await tronRailOn(node)) };
  const net = rail.net;
  let stop = false;
  let loops: Promise<void>[] = [];
  // How long each loop's passes took (a pass stuck behind others delays what comes after it).
  const passes = new Map<string, number[]>();
  const loop = async (what: string, everyMs: number, fn: () => Promise<unknown>) => {
    while (!stop) {
      const t0 = Date.now();
      await fn().catch((e) => console.error(`[${what}]`, String(e).slice(0, 200)));
      passes.set(what, [...(passes.get(what) ?? []), Date.now() - t0]);
      await new Promise((r) => setTimeout(r, everyMs));
    }
  };
  /**
   * Where the time goes, per payment (medians, seconds after the payment's broadcast): found by the watcher,
   * settlement created, each step recorded (signed, about to be broadcast) and counted done, paid_out.
   */
  const printPhases = async (ids: string[], paidAt: Map<string, number>) => {
    const transfers = await db.select().from(chainTransfers).where(inArray(chainTransfers.invoiceId, ids));
    const sets = await db
      .select()
      .from(settlements)
      .where(sql`${inArray(settlements.invoiceId, ids)} and ${settlements.kind} = 'invoice'`);
    const txs = await db
      .select()
      .from(settlementTxs)
      .where(
        inArray(
          settlementTxs.settlementId,
          sets.map((x) => x.id),
        ),
      );
    const marks = new Map<string, number[]>();
    const mark = (name: string, invoiceId: string, at: Date | null | undefined) => {
      if (!at) return;
      const list = marks.get(name) ?? [];
      list.push((at.getTime() - paidAt.get(invoiceId)!) / 1000);
      marks.set(name, list);
    };
    for (const t of transfers) {
      mark('1 payment in block (block time)', t.invoiceId, t.blockTime);
      mark('2 payment recorded by the watcher', t.invoiceId, t.createdAt);
    }
    for (const x of sets) {
      mark('3 settlement created (fan-out)', x.invoiceId, x.createdAt);
      for (const t of txs.filter((t) => t.settlementId === x.id && t.step !== 'undelegate')) {
        mark(`4 ${t.step} recorded`, x.invoiceId, t.createdAt);
        mark(`5 ${t.step} done`, x.invoiceId, t.confirmedAt);
      }
      mark('6 paid_out', x.invoiceId, x.completedAt);
    }
    const med = (l: number[]) => [...l].sort((a, b) => a - b)[Math.floor(l.length / 2)]!;
    console.log('Phases (median s after the payment was sent, count):');
    for (const [name, l] of [...marks].sort((a, b) => med(a[1]) - med(b[1])))
      console.log(`  ${name.padEnd(40)} ${med(l).toFixed(1).padStart(6)}  (${l.length})`);
  };
  try {
    const tenants = await Promise.all(Array.from({ length: TENANTS }, () => createTestTenant({ invoiceFeeRate: '0.01' })));
    const invoices: { id: string; address: string }[] = [];
    for (let i = 0; i < PAYMENTS; i++) {
      const t = tenants[i % TENANTS]!;
      const res = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '25.00', chain: 'TRON', token: 'USDT' } });
      if (res.status !== 201) throw new Error(`invoice: ${res.text}`);
      invoices.push({ id: res.body.id as string, address: res.body.depositAddress as string });
    }
    await watchTron(db, net, { baseBackoffMs: 1, maxRetries: 1 });
    // Statements and node calls of the watcher, fan-out, sweeps and janitor from here on (bench/lib/db-profile.ts).
    const profile = await startProfile(node.url);
    loops = [
      loop('watch', 1000, () => watchTron(db, net, { baseBackoffMs: 100, maxRetries: 3 })),
      loop('fan-out', 500, () => createSettlements(db, net)),
      loop('settle', 500, () => runSettlements(db, net, { concurrency: CONCURRENCY ?? settleConcurrency(net), max: 10_000 })),
      loop('janitor', 2000, () => reclaimSweepResources(db, net)),
    ];
    const started = Date.now();
    const paidAt = new Map<string, number>();
    for (const [i, inv] of invoices.entries()) {
      // Spread evenly over the window: payment i leaves at i × SPREAD / N.
      const at = started + (i * SPREAD_S * 1000) / PAYMENTS;
      if (at > Date.now()) await new Promise((r) => setTimeout(r, at - Date.now()));
      await rail.node.mintUsdt(inv.address, 25_000_000n);
      paidAt.set(inv.id, Date.now());
    }
    console.log(`${PAYMENTS} payments sent in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const ids = invoices.map((i) => i.id);
    const deadline = Date.now() + 30 * 60_000;
    let done: { invoiceId: string; completedAt: Date | null }[] = [];
    for (;;) {
      done = await db
        .select({ invoiceId: settlements.invoiceId, completedAt: settlements.completedAt })
        .from(settlements)
        .where(sql`${inArray(settlements.invoiceId, ids)} and ${settlements.status} = 'completed' and ${settlements.kind} = 'invoice'`);
      if (done.length === PAYMENTS || Date.now() > deadline) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const atPaidOut = profile.totals();
    const lat = done.map((d) => (d.completedAt!.getTime() - paidAt.get(d.invoiceId)!) / 1000).sort((a, b) => a - b);
    const pct = (p: number) => lat[Math.min(lat.length - 1, Math.ceil((p / 100) * lat.length) - 1)] ?? NaN;
    // The janitor's undelegations, then what every sweep burned.
    const sids = (await db.select({ id: settlements.id }).from(settlements).where(inArray(settlements.invoiceId, ids))).map((r) => r.id);
    const undelegated = async () =>
      (
        await db
          .select({ id: settlementTxs.id })
          .from(settlementTxs)
          .where(
            sql`${inArray(settlementTxs.settlementId, sids)} and ${settlementTxs.step} = 'undelegate' and ${settlementTxs.status} in ('confirmed', 'skipped')`,
          )
      ).length;
    const until = Date.now() + 3 * 60_000;
    while ((await undelegated()) < done.length && Date.now() < until) await new Promise((r) => setTimeout(r, 2000));
    const spends = await db.select().from(gasSpend).where(inArray(gasSpend.referenceId, sids));
    const byKind = new Map<string, bigint>();
    for (const s of spends) byKind.set(s.kind, (byKind.get(s.kind) ?? 0n) + BigInt(s.costWei));
    console.log(
      'TRX burned by kind, per sweep:',
      [...byKind].map(([k, v]) => `${k} ${(Number(v) / 1e6 / Math.max(1, done.length)).toFixed(3)}`).join(', '),
    );
    await printPhases(ids, paidAt);
    for (const [what, l] of passes) {
      const sorted = [...l].sort((a, b) => a - b);
      console.log(`  ${what} passes: ${l.length}, p50 ${sorted[Math.floor(l.length / 2)]} ms, max ${sorted.at(-1)} ms`);
    }
    console.log('Profile, from the first payment to the last undelegation:');
    for (const line of profile.report()) console.log(line);
    const burned = spends.reduce((a, s) => a + BigInt(s.costWei), 0n);
    const perSweep = Number(burned) / 1e6 / Math.max(1, done.length);
    const rows: Row[] = [
      { name: 'payments paid out', value: `${done.length} / ${PAYMENTS}`, target: `${PAYMENTS}`, ok: done.length === PAYMENTS },
      { name: 'payment → paid_out, p50', value: `${pct(50).toFixed(1)} s`, target: '≤ 90 s', ok: pct(50) <= 90 },
      { name: 'payment → paid_out, p95', value: `${pct(95).toFixed(1)} s`, target: '≤ 300 s', ok: pct(95) <= 300 },
      { name: 'payment → paid_out, min / max', value: `${lat[0]?.toFixed(1)} / ${lat.at(-1)?.toFixed(1)} s`, target: '', ok: null },
      { name: 'energy reclaimed (undelegated)', value: `${await undelegated()} / ${done.length}`, target: `${done.length}`, ok: null },
      { name: 'node calls / statements until all paid out', value: `${atPaidOut.nodeCalls} / ${atPaidOut.statements}`, target: '', ok: null },
      { name: 'TRX burned per sweep', value: `${perSweep.toFixed(3)} TRX`, target: '≤ 1.60 TRX', ok: perSweep <= 1.6 },
    ];
    const load = loadavg()
      .map((l) => l.toFixed(1))
      .join(' / ');
    rows.push({ name: 'machine load (1 / 5 / 15 min) at the end', value: load, target: '', ok: null });
    printTable(
      `TRON sweeps at volume: ${PAYMENTS} payments of 25 USDT within ${SPREAD_S} s, ${TENANTS} tenants, ${CONCURRENCY ?? settleConcurrency(net)} sweeps in flight, stand-in at 3 s blocks, 19 to solidify`,
      rows,
    );
  } finally {
    stop = true;
    await Promise.race([Promise.all(loops), new Promise((r) => setTimeout(r, 5000))]);
    await rail.stop();
    await node.stop();
  }
});
