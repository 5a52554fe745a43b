/**
 * Batch payouts (issue 47) on local chains, in-process (lib/, real PostgreSQL, anvil, the TRON stand-in): a
 * 1,000-item payout split over BSC (USDT, 18 decimals), Ethereum (USDT, 6) and TRON (USDT, 6), from POST
 * /v1/payouts to every item COMPLETED, the EVM lanes sending payout items through the disperse contract, the TRON
 * lane one transaction per item, TRON_SEND_PARALLEL at a time; then 200 items on BSC+Ethereum sent one transfer
 * each (no disperse contract) for comparison. Prints items per second, gas per item batched vs single (from
 * gas_spend, the receipts' gasUsed), TRX burned per TRON item (gas_spend, sun) and the machine's load with each
 * figure. Exactly once is checked: every recipient's balance, on its chain.
 *   npx tsx bench/payouts.ts   (BENCH_PAYOUT_ITEMS=30 BENCH_PAYOUT_SINGLE_ITEMS=10 for a smoke run)
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { parseUnits, type Address } from 'viem';
import { printTable, withBenchDatabase, type Row } from './lib/harness';

const ITEMS = Number(process.env.BENCH_PAYOUT_ITEMS ?? 1000);
const SINGLE_ITEMS = Number(process.env.BENCH_PAYOUT_SINGLE_ITEMS ?? 200);
const load = () => `load ${os.loadavg()[0]!.toFixed(2)}`;

async function main(): Promise<Row[]> {
  const { startAnvil } = await import('@/lib/testing/anvil');
  const { setNetworkOverride } = await import('@/lib/chain/network');
  const { createTestTenant } = await import('@/lib/testing/fixtures');
  const { postLedgerEntry } = await import('@/lib/ledger/post-entry');
  const { call } = await import('@/lib/testing/app');
  const { freshAddress } = await import('@/lib/testing/settled-invoice');
  const { processWithdrawals } = await import('@/lib/withdrawals/process-withdrawals');
  const { DEFAULT_DISPERSE_CAP } = await import('@/lib/chain/evm/disperse/disperse-call');
  const { rowsOf } = await import('@/lib/db');
  const { startTronRail } = await import('@/lib/testing/tron-rail');
  const { freshTronAddress, usdtOf } = await import('@/lib/testing/tron-lane-helpers');
  const { TRON_SEND_PARALLEL } = await import('@/lib/withdrawals/tron-send');
  const { NETWORK_COST_DEFAULTS } = await import('@/lib/config/network-costs');
  type LaneNetwork = import('@/lib/withdrawals/lane-helpers').LaneNetwork;

  const bsc = await startAnvil({ chain: 'BSC', tokens: [{ asset: 'USDT', decimals: 18 }] });
  const eth = await startAnvil({ chain: 'ETHEREUM', tokens: [{ asset: 'USDT', decimals: 6 }] });
  const chains = [bsc, eth];
  // The stand-in mines a block per broadcast (tests' autoMine); its hot wallet holds 1,000,000 TRX for the burns.
  const tron = await startTronRail();
  try {
    for (const c of chains) await c.mint(c.addresses.hot, '10000000', c.tokens[0]!.address);
    await tron.node.mintUsdt(tron.node.keys.hot.address, 10n ** 13n);
    const t = await createTestTenant({ name: 'Bench payouts' });
    await t.db.transaction((tx) =>
      postLedgerEntry(tx, {
        tenantId: t.tenant.id,
        mode: 'test',
        amount: '1000000',
        kind: 'test_credit',
        referenceType: 'bench',
        referenceId: `bench-${t.tenant.id}`,
        currency: 'USDT',
      }),
    );
    await t.db.execute(sql`update api_keys set rate_limit_rpm = 100000000 where tenant_id = ${t.tenant.id}`);
    const rows: Row[] = [];

    /**
     * One payout of `n` items spread evenly over the EVM chains (and TRON when `withTron`), sent to the end;
     * `batched` false: the EVM networks without the contract.
     */
    const run = async (n: number, batched: boolean, withTron: boolean) => {
      // Each network's default flat fee and gas coin price: batched items are charged their share of the batch's gas.
      const costs = (c: (typeof chains)[number]) => {
        const d = NETWORK_COST_DEFAULTS[c === bsc ? 'BSC' : 'ETHEREUM'];
        return { networkFee: d.networkFee, gasCoinUsd: d.gasCoinUsd };
      };
      const nets = chains.map((c) => ({ ...c.network('test', batched ? {} : { disperseAddress: undefined }), ...costs(c) }) as LaneNetwork);
      setNetworkOverride('test', nets[0]!, 'BSC');
      setNetworkOverride('test', nets[1]!, 'ETHEREUM');
      const lanes = withTron ? 3 : 2;
      const chainOf = (i: number) => (['BSC', 'ETHEREUM', 'TRON'] as const)[i % lanes]!;
      const items = Array.from({ length: n }, (_, i) => ({
        reference: `bench-${batched ? 'b' : 's'}-${Date.now()}-${i}`,
        destinationAddress: chainOf(i) === 'TRON' ? freshTronAddress() : freshAddress(),
        amount: (1 + (i % 100) / 100).toFixed(2),
        chain: chainOf(i),
        token: 'USDT',
      }));
      const laneNets = withTron ? [...nets, tron.net as unknown as LaneNetwork] : nets;
      const t0 = performance.now();
      const res = await call('POST', '/v1/payouts', { key: t.test, body: { items } });
      if (res.status !== 201) throw new Error(`POST /v1/payouts: ${res.status} ${res.text}`);
      const created = performance.now() - t0;
      const createLoad = load();
      let passes = 0;
      /** When this payout's TRON items were all COMPLETED (ms from the POST), checked after each pass. */
      let tronDone: number | null = null;
      for (;;) {
        passes++;
        await Promise.all(laneNets.map((net) => processWithdrawals(t.db, net, { retryDelayMs: 0 })));
        // TRON: 19 blocks solidify what this pass sent.
        await Promise.all([...chains.map((c) => c.mine(12)), ...(withTron ? [tron.node.mine(19)] : [])]);
        if (withTron && tronDone === null) {
          const [open] = rowsOf<{ n: number }>(
            await t.db.execute(sql`select count(*)::int as n from withdrawals
                                    where tenant_id = ${t.tenant.id} and chain = 'TRON' and status <> 'COMPLETED'`),
          );
          if (open!.n === 0) tronDone = performance.now() - t0;
        }
        const view = await call('GET', `/v1/payouts/${res.body.id}`, { key: t.test });
        if (view.body.status === 'COMPLETED') {
          if (view.body.counts.completed !== n) throw new Error(`only ${view.body.counts.completed} of ${n} items completed`);
          break;
        }
        if (passes > 400) throw new Error('payout did not complete');
      }
      const total = performance.now() - t0;
      // Exactly once, from the chains: each recipient holds its amount.
      for (const it of items) {
        const c = it.chain === 'BSC' ? bsc : it.chain === 'ETHEREUM' ? eth : null;
        const got = c ? await c.tokenBalance(it.destinationAddress as Address, c.tokens[0]!.address) : await usdtOf(tron, it.destinationAddress);
        if (got !== parseUnits(it.amount, c ? c.tokens[0]!.decimals : 6))
          throw new Error(`${it.destinationAddress} holds ${got}, expected ${it.amount}`);
      }
      const gas = rowsOf<{ chain_id: string; kind: string; txs: string; gas: string }>(
        await t.db.execute(sql`select chain_id::text, kind, count(*)::text as txs, sum(gas_used)::text as gas from gas_spend
                                where kind = ${batched ? 'withdrawal_batch' : 'withdrawal'} group by chain_id, kind`),
      );
      // TRON: the TRX each item's transaction burned (energy and bandwidth, sun), one gas_spend row per item.
      const [burn] = rowsOf<{ txs: string; sun: string | null }>(
        await t.db.execute(sql`select count(*)::text as txs, sum(cost_wei)::text as sun from gas_spend
                                where kind = 'withdrawal' and chain_id = ${tron.net.chainId}`),
      );
      // What each EVM item was finally charged of its network fee (payout_items.network_fee) against the flat fee reserved.
      const charged = rowsOf<{ chain: string; avg: string; min: string; max: string }>(
        await t.db.execute(sql`select chain, avg(network_fee)::numeric(20, 4)::text as avg, min(network_fee)::text as min,
                                      max(network_fee)::text as max
                                 from payout_items where payout_id = ${res.body.id} and chain <> 'TRON' group by chain order by chain`),
      );
      return {
        charged,
        created,
        total,
        passes,
        totalLoad: load(),
        createLoad,
        gas,
        burn: burn!,
        tronDone,
        tronItems: items.filter((i) => i.chain === 'TRON').length,
      };
    };

    const b = await run(ITEMS, true, true);
    const perChain = (chain: string) => Math.ceil((ITEMS - ['BSC', 'ETHEREUM', 'TRON'].indexOf(chain)) / 3);
    rows.push({
      name: `POST /v1/payouts, ${ITEMS} items (validate + reserve) (${b.createLoad})`,
      value: `${(b.created / 1000).toFixed(2)} s (${Math.round(ITEMS / (b.created / 1000))} items/s)`,
      target: 'informational',
      ok: null,
    });
    rows.push({
      name: `${ITEMS} items BSC+Ethereum batched (cap ${DEFAULT_DISPERSE_CAP}) + TRON one tx each, POST to all COMPLETED (${b.totalLoad})`,
      value: `${(b.total / 1000).toFixed(1)} s, ${(ITEMS / (b.total / 1000)).toFixed(0)} items/s, ${b.passes} lane passes`,
      target: 'informational',
      ok: null,
    });
    const sun = BigInt(b.burn.sun ?? '0');
    rows.push({
      name: `TRON's ${b.tronItems} items of it (one tx each, ${TRON_SEND_PARALLEL} at a time), POST to all COMPLETED (${b.totalLoad})`,
      value: b.tronDone === null ? 'n/a' : `${(b.tronDone / 1000).toFixed(1)} s, ${(b.tronItems / (b.tronDone / 1000)).toFixed(0)} items/s`,
      target: 'informational',
      ok: null,
    });
    rows.push({
      name: `TRON: TRX burned per item (${b.burn.txs} txs for ${b.tronItems} items, fresh recipients, no staked energy) (${load()})`,
      value: `${(Number(sun / BigInt(Math.max(1, b.tronItems))) / 1e6).toFixed(2)} TRX (${(Number(sun) / 1e6).toFixed(1)} TRX in all)`,
      target: 'informational',
      ok: null,
    });
    const s = await run(SINGLE_ITEMS, false, false);
    rows.push({
      name: `${SINGLE_ITEMS} items BSC+Ethereum one transfer each, POST to all COMPLETED (${s.totalLoad})`,
      value: `${(s.total / 1000).toFixed(1)} s, ${(SINGLE_ITEMS / (s.total / 1000)).toFixed(0)} items/s, ${s.passes} lane passes`,
      target: 'informational',
      ok: null,
    });
    for (const c of chains) {
      const name = c === bsc ? 'BSC' : 'Ethereum';
      const bg = b.gas.find((g) => Number(g.chain_id) === c.chainId)!;
      const sg = s.gas.find((g) => Number(g.chain_id) === c.chainId)!;
      const batchedPer = Number(bg.gas) / perChain(c === bsc ? 'BSC' : 'ETHEREUM');
      const singlePer = Number(sg.gas) / (SINGLE_ITEMS / 2);
      rows.push({
        name: `${name} gas per item: batched (${bg.txs} txs) vs single (${load()})`,
        value: `${Math.round(batchedPer)} vs ${Math.round(singlePer)} (${((batchedPer / singlePer) * 100).toFixed(0)} %)`,
        target: 'batched < single',
        ok: batchedPer < singlePer,
      });
      const key = c === bsc ? 'BSC' : 'ETHEREUM';
      const ch = b.charged.find((r) => r.chain === key);
      rows.push({
        name: `${name} network fee per batched item: charged (its share, at ${NETWORK_COST_DEFAULTS[key].gasCoinUsd} USD/coin, local gas price) vs flat ${NETWORK_COST_DEFAULTS[key].networkFee} reserved`,
        value: ch ? `avg ${ch.avg} (min ${Number(ch.min).toFixed(2)}, max ${Number(ch.max).toFixed(2)})` : 'n/a',
        target: 'informational',
        ok: null,
      });
    }
    return rows;
  } finally {
    for (const c of chains) await c.stop();
    await tron.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await withBenchDatabase(async () => {
    const rows = await main();
    printTable('Batch payouts (issue 47), local chains, in-process', rows);
  });
}
