/**
 * TRON watcher benchmark on the stand-in node (docs/tron.md §10: anvil executes the TRC-20, the stand-in
 * serves TRON's HTTP API and JSON-RPC), real PostgreSQL, TronWeb-signed USDT transfers (6 decimals).
 *
 * 1. Per-range cost (the stand-in mining a block per broadcast): a watchTron pass that finds one new block
 *    with one payment (the steady state at TRON's 3 s blocks: heads, cursor, reorg check, eth_getLogs + block
 *    in one batch, record, confirmation pass), the range read alone, an idle pass (no new block), and a
 *    catch-up range of many blocks of transfers (most to addresses of no invoice).
 * 2. Detection latency at TRON's cadence (the stand-in making a block every 3 s, the watcher loop as the worker
 *    runs it, ~1 s polls): invoices paid at random moments; broadcast accepted -> invoice leaves PENDING, and
 *    block appears (20 ms poller of eth_blockNumber) -> invoice.detected.
 *   npx tsx bench/tron.ts [payments=12] [steady passes=30] [catch-up blocks=120]
 */
import { eq } from 'drizzle-orm';
import { printTable, withBenchDatabase, type Row } from './lib/harness';
import { awaitDetection } from './lib/await-detection';
import { detectionLatencies, pct } from './lib/percentiles';

const PAYMENTS = Number(process.argv[2] ?? 12);
const PASSES = Number(process.argv[3] ?? 30);
const CATCH_UP = Number(process.argv[4] ?? 120);
const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
const fmt = (n: number) => n.toFixed(1);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

await withBenchDatabase(async () => {
  const { getDb } = await import('@/lib/db');
  const { chainTransfers } = await import('@/db/schema');
  const { startTronRail } = await import('@/lib/testing/tron-rail');
  const { watchTron } = await import('@/lib/payments/watch-tron');
  const { watchChainLoop } = await import('@/lib/payments/watch-loop');
  const { readTrc20Transfers } = await import('@/lib/chain/tron/read-chain');
  const { loadCursor } = await import('@/lib/chain/cursor');
  const { createInvoice } = await import('@/lib/invoices/create-invoice');
  const { CreateInvoiceBody } = await import('@/lib/invoices/schemas');
  const { createTenant } = await import('@/lib/tenants/create-tenant');
  const { utils } = await import('tronweb');
  const db = await getDb();
  const { tenant } = await createTenant(db, { name: 'TRON bench' });
  const rows: Row[] = [];

  type Rail = Awaited<ReturnType<typeof startTronRail>>;
  const newInvoice = (rail: Rail, amount: string) =>
    createInvoice(db, { tenantId: tenant.id, mode: 'test' }, rail.net, CreateInvoiceBody.parse({ amount, chain: 'TRON', token: 'USDT' }));
  /** A TronWeb-signed USDT transfer from the stand-in's `other` account; resolves once the node accepted it. */
  const payer = async (rail: Rail) => {
    const usdt = await rail.node.tronWeb(rail.node.keys.other.privateKey).contract().at(rail.node.usdt);
    return async (to: string, units: bigint) => String(await usdt.transfer(to, units.toString()).send());
  };

  // 1. Per-range cost.
  {
    const rail = await startTronRail();
    try {
      await rail.node.mintUsdt(rail.node.keys.other.address, 10n ** 12n);
      const pay = await payer(rail);
      await watchTron(db, rail.net);
      const pass: number[] = [];
      const read: number[] = [];
      for (let i = 0; i < PASSES; i++) {
        const inv = await newInvoice(rail, '1');
        await pay(inv.depositAddress, 1_000_000n);
        const from = (await loadCursor(db, rail.net))!.lastBlock + 1;
        const t0 = performance.now();
        const r = await watchTron(db, rail.net);
        pass.push(performance.now() - t0);
        if (r.matched !== 1) throw new Error(`pass ${i}: matched ${r.matched}`);
        const t1 = performance.now();
        await readTrc20Transfers(rail.client, { tokens: [rail.net.tokenAddress], from, to: r.cursor });
        read.push(performance.now() - t1);
      }
      const idle: number[] = [];
      for (let i = 0; i < PASSES; i++) {
        const t0 = performance.now();
        await watchTron(db, rail.net);
        idle.push(performance.now() - t0);
      }
      // Catch-up: CATCH_UP blocks, each one transfer (one in ten to an invoice), scanned as one range.
      const start = (await loadCursor(db, rail.net))!.lastBlock;
      let paid = 0;
      for (let i = 0; i < CATCH_UP; i++) {
        const to = i % 10 === 0 ? (await newInvoice(rail, '1')).depositAddress : utils.accounts.generateAccount().address.base58;
        if (i % 10 === 0) paid++;
        await pay(to, 1_000_000n);
      }
      const t0 = performance.now();
      const r = await watchTron(db, rail.net, { maxRange: 500 });
      const catchUp = performance.now() - t0;
      if (r.matched !== paid) throw new Error(`catch-up matched ${r.matched} of ${paid}`);
      console.log(
        `tron watcher (stand-in): pass with 1 new block and 1 payment mean ${fmt(mean(pass))} ms, p50 ${fmt(pct(pass, 50))}, p95 ${fmt(pct(pass, 95))}, ` +
          `max ${fmt(Math.max(...pass))} (n ${pass.length}); range read alone (eth_getLogs + block, one batch) mean ${fmt(mean(read))} ms, ` +
          `p95 ${fmt(pct(read, 95))}; idle pass mean ${fmt(mean(idle))} ms; catch-up ${r.cursor - start} blocks (${CATCH_UP} transfers, ${paid} ` +
          `to invoices) in one pass ${fmt(catchUp)} ms (${fmt(catchUp / (r.cursor - start))} ms per block)`,
      );
      rows.push(
        {
          name: 'TRON pass, 1 new block + 1 payment: mean / p95 ms',
          value: `${fmt(mean(pass))} / ${fmt(pct(pass, 95))}`,
          target: 'mean < 100',
          ok: mean(pass) < 100,
        },
        { name: 'TRON range read (getLogs + block batch): mean / p95 ms', value: `${fmt(mean(read))} / ${fmt(pct(read, 95))}`, target: '', ok: null },
        { name: 'TRON idle pass (no new block): mean ms', value: fmt(mean(idle)), target: '', ok: null },
        {
          name: `TRON catch-up, ${r.cursor - start} blocks in one range: ms (per block)`,
          value: `${fmt(catchUp)} (${fmt(catchUp / (r.cursor - start))})`,
          target: '',
          ok: null,
        },
      );
    } finally {
      await rail.stop();
    }
  }

  // 2. Detection latency at 3 s blocks, through the watcher loop.
  {
    const rail = await startTronRail({ node: { blockTimeMs: 3_000 } });
    const controller = new AbortController();
    let polling = true;
    try {
      await rail.node.mintUsdt(rail.node.keys.other.address, 10n ** 12n);
      const pay = await payer(rail);
      const appeared = new Map<number, number>();
      const poller = (async () => {
        while (polling) {
          const [n] = await rail.client.jsonRpc([{ method: 'eth_blockNumber', params: [] }]);
          const b = Number(n);
          if (!appeared.has(b)) appeared.set(b, Date.now());
          await sleep(20);
        }
      })();
      const watcher = watchChainLoop(db, 'test', { signal: controller.signal, runForMs: 600_000 });
      const toNotPending: number[] = [];
      const toDetected: number[] = [];
      for (let i = 0; i < PAYMENTS; i++) {
        const inv = await newInvoice(rail, '2');
        await sleep(Math.random() * 3_000);
        await pay(inv.depositAddress, 2_000_000n);
        const sent = Date.now();
        const { leftAt: left, detectedAt } = await awaitDetection(db, inv.id, 2_000);
        const [t] = await db.select({ block: chainTransfers.blockNumber }).from(chainTransfers).where(eq(chainTransfers.invoiceId, inv.id));
        const mined = t && appeared.get(t.block);
        if (left === undefined || detectedAt === undefined || mined === undefined) throw new Error(`TRON payment ${i}: no detection or block time`);
        toNotPending.push(left - sent);
        toDetected.push(detectedAt - mined);
      }
      controller.abort();
      polling = false;
      await Promise.all([watcher, poller]);
      console.log(
        `tron detection (stand-in, 3 s blocks, watcher loop ~1 s polls): ${PAYMENTS} payments; broadcast accepted -> ` +
          detectionLatencies(toNotPending, toDetected),
      );
      rows.push(
        {
          name: 'TRON broadcast -> not PENDING median / p95 ms (3 s blocks)',
          value: `${pct(toNotPending, 50)} / ${pct(toNotPending, 95)} (n ${PAYMENTS})`,
          target: 'median < 4500',
          ok: pct(toNotPending, 50) < 4_500,
        },
        {
          name: 'TRON block -> invoice.detected p50 / p90 ms',
          value: `${pct(toDetected, 50)} / ${pct(toDetected, 90)}`,
          target: 'p50 < 1500',
          ok: pct(toDetected, 50) < 1_500,
        },
      );
    } finally {
      controller.abort();
      polling = false;
      await rail.stop();
    }
  }
  printTable(`TRON watcher on the stand-in node: per-range cost, and detection at 3 s blocks (${PAYMENTS} payments)`, rows);
});
process.exit(0);
