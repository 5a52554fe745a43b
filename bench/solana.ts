/**
 * Solana rail benchmark on the stand-in (devtools/solana-node) making a slot every 400 ms (mainnet's target) and
 * finalizing 32 slots behind (mainnet's usual lag): invoices paid in USDC from wallets built with @solana/kit
 * (lib/testing/solana-payer.ts), found by the worker's watch loop at its default poll, fanned out and swept by the
 * real settlement jobs (side by side, as the worker runs them). Prints
 * - detection latency: payer's send → DETECTED (seen at `confirmed`) and → CONFIRMED (`finalized`), p50/p95/max;
 * - cost per sweep in SOL: the lamports gas_spend records (fees the gas wallet paid) and the gas wallet's net change
 *   (the closed deposit accounts' rent comes back to it).
 *   npx tsx bench/solana.ts [payments=10]
 */
import { inArray } from 'drizzle-orm';
import { printTable, withBenchDatabase, type Row } from './lib/harness';
import { pct } from './lib/percentiles';

const PAYMENTS = Number(process.argv[2] ?? 10);
const SLOT_MS = 400;
const FINALIZED_DEPTH = 32;
const LAMPORTS = 1e9;

await withBenchDatabase(async () => {
  const { getDb } = await import('@/lib/db');
  const { gasSpend, invoices, settlements } = await import('@/db/schema');
  const { startSolanaNode } = await import('@/devtools/solana-node/solana-node');
  const { ADDRESS_CODECS } = await import('@/lib/chain/address-codecs');
  const { setNetworkOverride } = await import('@/lib/chain/network');
  const { clearRailVerdicts } = await import('@/lib/chain/rail-stops');
  const { solanaRpc } = await import('@/lib/chain/solana/rpc');
  const { DEV_MNEMONIC } = await import('@/lib/config/network-env');
  const { CHAIN_SPECS } = await import('@/lib/config/rails');
  const { SOLANA_DEV } = await import('@/lib/config/solana/dev-network');
  const { createInvoice } = await import('@/lib/invoices/create-invoice');
  const { CreateInvoiceBody } = await import('@/lib/invoices/schemas');
  const { watchChainLoop } = await import('@/lib/payments/watch-loop');
  const { createSettlements } = await import('@/lib/settlements/create-settlements');
  const { runSettlements } = await import('@/lib/settlements/run-settlements');
  const { settleConcurrency } = await import('@/lib/settlements/settle-invoice');
  const { createTestTenant } = await import('@/lib/testing/fixtures');
  const { solanaPayer } = await import('@/lib/testing/solana-payer');
  const db = await getDb();
  const node = await startSolanaNode({ slotTimeMs: SLOT_MS, finalizedDepth: FINALIZED_DEPTH });
  const codec = ADDRESS_CODECS.solana;
  const usdc = codec.wireForm(SOLANA_DEV.mints.USDC);
  const net = {
    family: 'solana' as const,
    mode: 'test' as const,
    chain: 'SOLANA' as const,
    token: 'USDC' as const,
    chainId: CHAIN_SPECS.SOLANA.devChainId.test,
    rpcUrl: node.url,
    tokenAddress: usdc,
    decimals: 6,
    confirmations: CHAIN_SPECS.SOLANA.confirmations,
    depositMnemonic: DEV_MNEMONIC,
    gasWalletKey: SOLANA_DEV.gasWalletKey,
    hotWalletKey: SOLANA_DEV.hotWalletKey,
    feeWallet: codec.parse(node.keys.other.address),
    sweepMinimum: '0.10',
    sweepFee: '0.01',
    tokens: [{ asset: 'USDC' as const, address: usdc, decimals: 6 }],
  };
  setNetworkOverride('test', net);
  clearRailVerdicts();
  const ac = new AbortController();
  try {
    const t = await createTestTenant({ invoiceFeeRate: '0.01' });
    const payer = solanaPayer(node);
    const wallets = await Promise.all(Array.from({ length: PAYMENTS }, () => payer.funded('USDC', 20_000_000n)));
    const invs = [];
    for (let i = 0; i < PAYMENTS; i++) {
      invs.push(
        await createInvoice(t.db, { tenantId: t.tenant.id, mode: 'test' }, net, {
          ...CreateInvoiceBody.parse({ amount: '12.50', token: 'USDC' }),
          chain: 'SOLANA',
        }),
      );
    }
    const loop = watchChainLoop(db, 'test', { signal: ac.signal, runForMs: 600_000 });
    // The loop's first pass (rail check, cursor) before the first payment.
    await new Promise((r) => setTimeout(r, 2_000));
    const sent: number[] = [];
    const detected: (number | undefined)[] = [];
    const confirmed: (number | undefined)[] = [];
    const ids = invs.map((i) => i.id);
    const poll = async () => {
      const rows = await db.select({ id: invoices.id, s: invoices.status }).from(invoices).where(inArray(invoices.id, ids));
      const now = Date.now();
      for (const r of rows) {
        const i = ids.indexOf(r.id);
        if (sent[i] === undefined) continue;
        if (detected[i] === undefined && r.s !== 'PENDING') detected[i] = now - sent[i]!;
        if (confirmed[i] === undefined && ['CONFIRMED', 'PROCESSING_PAYOUT', 'PAID_OUT'].includes(r.s)) confirmed[i] = now - sent[i]!;
      }
    };
    const watching = (async () => {
      while (confirmed.filter((c) => c !== undefined).length < PAYMENTS && !ac.signal.aborted) {
        await poll();
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    // One payment every 700 ms (not aligned with the 1 s poll or the 400 ms slots), each from its own wallet.
    for (let i = 0; i < PAYMENTS; i++) {
      sent[i] = Date.now();
      await payer.pay(wallets[i]!, codec.parse(invs[i]!.depositAddress), 'USDC', 12_500_000n);
      await new Promise((r) => setTimeout(r, 700));
    }
    await Promise.race([watching, new Promise((_, no) => setTimeout(() => no(new Error('payments not confirmed within 120 s')), 120_000))]);
    const d = detected.map((x) => x!);
    const c = confirmed.map((x) => x!);

    // The sweeps: the fan-out waits for the invoice's confirmations (32 slots) on top of finality, then all at once.
    const rpc = solanaRpc(node.url);
    const gasLamports = async () => (await rpc.call('getBalance', [node.keys.gas.address, { commitment: 'finalized' }])).value;
    const gasBefore = await gasLamports();
    const settlementIds: string[] = [];
    for (const deadline = Date.now() + 60_000; settlementIds.length < PAYMENTS && Date.now() < deadline;) {
      settlementIds.push(...(await createSettlements(db, net)));
      await new Promise((r) => setTimeout(r, 500));
    }
    const sweepStart = Date.now();
    // As the worker's job runs them (lib/jobs/invoice-jobs.ts): the family's concurrency (16 on Solana).
    const done = await runSettlements(db, net, { max: PAYMENTS, concurrency: settleConcurrency(net) });
    const sweepMs = Date.now() - sweepStart;
    if (done.completed !== PAYMENTS) {
      const rows = await db.select().from(settlements).where(inArray(settlements.id, settlementIds));
      throw new Error(`sweeps: ${JSON.stringify(done)}; ${rows.map((r) => `${r.status} ${r.lastError ?? ''}`).join('; ')}`);
    }
    // The gas wallet's net change once every sweep is finalized (the node's finalized view lags 32 slots).
    await new Promise((r) => setTimeout(r, (FINALIZED_DEPTH + 2) * SLOT_MS));
    const gasNet = (await gasLamports()) - gasBefore;
    const spends = await db.select().from(gasSpend).where(inArray(gasSpend.referenceId, settlementIds));
    const feeLamports = spends.reduce((a, s) => a + BigInt(s.costWei), 0n);
    const paidOut = await db.select({ s: invoices.status }).from(invoices).where(inArray(invoices.id, ids));
    const sol = (l: number) => `${(l / LAMPORTS).toFixed(9)} SOL`;
    const rows: Row[] = [
      { name: `payer's send -> DETECTED (confirmed), p50`, value: `${pct(d, 50)} ms`, target: `poll 1 s + 1 slot`, ok: pct(d, 50) < 2_000 },
      { name: `payer's send -> DETECTED, p95 / max`, value: `${pct(d, 95)} / ${Math.max(...d)} ms`, target: '', ok: null },
      {
        name: `payer's send -> CONFIRMED (finalized), p50`,
        value: `${pct(c, 50)} ms`,
        target: `${FINALIZED_DEPTH} slots + poll = ${(FINALIZED_DEPTH * SLOT_MS) / 1000 + 1} s`,
        ok: pct(c, 50) < FINALIZED_DEPTH * SLOT_MS + 3_000,
      },
      { name: `payer's send -> CONFIRMED, p95 / max`, value: `${pct(c, 95)} / ${Math.max(...c)} ms`, target: '', ok: null },
      { name: `sweeps (all ${PAYMENTS} side by side, to finalized)`, value: `${sweepMs} ms`, target: '', ok: null },
      {
        name: 'fees per sweep (gas_spend, lamports)',
        value: `${Number(feeLamports) / PAYMENTS} (${sol(Number(feeLamports) / PAYMENTS)})`,
        target: '10,000 (2 signatures)',
        ok: Number(feeLamports) / PAYMENTS === 10_000,
      },
      {
        name: `gas wallet net per sweep (${PAYMENTS} sweeps, the first creates the hot ATA)`,
        value: `${Number(gasNet) / PAYMENTS > 0 ? '+' : ''}${Number(gasNet) / PAYMENTS} (${sol(Number(gasNet) / PAYMENTS)})`,
        target: 'rent back > fees',
        ok: gasNet > 0n,
      },
      {
        name: 'invoices PAID_OUT',
        value: `${paidOut.filter((r) => r.s === 'PAID_OUT').length}/${PAYMENTS}`,
        target: `${PAYMENTS}`,
        ok: paidOut.every((r) => r.s === 'PAID_OUT'),
      },
    ];
    printTable(
      `Solana rail, ${PAYMENTS} payments of 12.50 USDC (stand-in: ${SLOT_MS} ms slots, confirmed 1 slot and finalized ${FINALIZED_DEPTH} slots behind; watch loop at its default 1 s poll)`,
      rows,
    );
    console.log(
      `[bench solana] detected ms: ${d.join(', ')}; confirmed ms: ${c.join(', ')}; gas wallet net ${gasNet} lamports over ${PAYMENTS} sweeps`,
    );
    ac.abort();
    await loop;
  } finally {
    ac.abort();
    setNetworkOverride('test', undefined, 'SOLANA');
    await node.stop();
  }
});
