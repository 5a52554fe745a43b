/**
 * Detection latency: anvil with 0.45 s blocks (BSC since Fermi), the watcher
 * loop as the worker runs it, payments sent from the faucet at random moments.
 * Latency = the invoice.detected row's createdAt minus the moment the payment's
 * block appeared (a 10 ms eth_blockNumber poller). Target: p50 under 1 s.
 *   npx tsx bench/detection.ts [payments=40]
 */
import { and, eq } from 'drizzle-orm';
import { erc20Abi, getAddress, parseUnits } from 'viem';
import { printTable, withBenchDatabase } from './lib/harness';

const PAYMENTS = Number(process.argv[2] ?? 40);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

await withBenchDatabase(async () => {
  const { getDb } = await import('@/lib/db');
  const { events } = await import('@/db/schema');
  const { startAnvil } = await import('@/lib/testing/anvil');
  const { setNetworkOverride } = await import('@/lib/chain/network');
  const { watchChainLoop } = await import('@/lib/invoices/watch-loop');
  const { createInvoice } = await import('@/lib/invoices/create-invoice');
  const { CreateInvoiceBody } = await import('@/lib/invoices/schemas');
  const { createTenant } = await import('@/lib/tenants/create-tenant');

  const chain = await startAnvil({ blockTime: 0.45 });
  const net = chain.network('test');
  setNetworkOverride('test', net);
  const db = await getDb();
  const { tenant } = await createTenant(db, { name: 'Detection bench' });

  const appeared = new Map<bigint, number>();
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const n = await chain.client.getBlockNumber();
      if (!appeared.has(n)) appeared.set(n, Date.now());
      await sleep(10);
    }
  })();
  const controller = new AbortController();
  const watcher = watchChainLoop(db, 'test', { signal: controller.signal, runForMs: 3_600_000 });

  const latencies: number[] = [];
  for (let i = 0; i < PAYMENTS; i++) {
    const inv = await createInvoice(
      db,
      { tenantId: tenant.id, mode: 'test' },
      net as typeof net & { depositMnemonic: string },
      CreateInvoiceBody.parse({ amount: '1' }),
    );
    await sleep(Math.random() * 450);
    const hash = await chain.faucet.writeContract({
      address: chain.token,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [getAddress(inv.depositAddress), parseUnits('1', 18)],
    });
    const receipt = await chain.client.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    let row: { createdAt: Date } | undefined;
    for (let k = 0; k < 500 && !row; k++) {
      [row] = await db
        .select({ createdAt: events.createdAt })
        .from(events)
        .where(and(eq(events.subjectId, inv.id), eq(events.type, 'invoice.detected')));
      if (!row) await sleep(10);
    }
    const mined = appeared.get(receipt.blockNumber);
    if (!row || mined === undefined) throw new Error(`payment ${i}: no detection or block time`);
    latencies.push(row.createdAt.getTime() - mined);
  }
  controller.abort();
  polling = false;
  await Promise.all([watcher, poller]);
  await chain.stop();
  console.log(
    `detection: ${PAYMENTS} payments on anvil (0.45 s blocks): block appears -> invoice.detected ` +
      `p50 ${pct(latencies, 50)} ms, p90 ${pct(latencies, 90)} ms, max ${Math.max(...latencies)} ms (target p50 < 1000 ms)`,
  );
  printTable(`Detection latency: ${PAYMENTS} payments, anvil with 0.45 s blocks`, [
    { name: 'block -> invoice.detected p50 ms', value: String(pct(latencies, 50)), target: '< 1000', ok: pct(latencies, 50) < 1000 },
    { name: 'block -> invoice.detected p90 / max ms', value: `${pct(latencies, 90)} / ${Math.max(...latencies)}`, target: '', ok: null },
  ]);
});
process.exit(0);
