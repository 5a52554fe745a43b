/**
 * Screening's cost on the money paths (issue 46 §3, docs/screening.md), in-process, no server:
 * - per `POST /v1/withdrawals`: what the request does to screen its destination (refuseScreened, the offline SDN
 *   Set, then refuseScreenedByAdapters, which returns at once with no adapter configured, the default), p50/p99
 *   per request over fresh EVM and TRON addresses;
 * - per watcher pass of 1,000 payments: what record-transfers does per pass (screenSenders: each distinct sender once,
 *   one Set probe by the decoded key, counters moved once; the adapters' check), 1% of the senders on the list, p50/p99
 *   per pass; beside it the old per-payment screenAddress loop, for scale.
 * Target for both: at most 1 ms p99. For scale, the same measured around an empty function (the timer's own cost).
 * Then, informational (opt-in, with RPC): one read of the sanctions oracle stand-in on anvil (SCREENING_ORACLE_ADDRESS).
 * Each figure prints the 1-minute load average when it was taken.
 *   npx tsx bench/screening.ts [requests=20000] [passes=1000]
 */
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { getAddress, type Address } from 'viem';
import { printTable, withBenchDatabase, type Row } from './lib/harness';
import { pct } from './lib/percentiles';

const REQUESTS = Number(process.argv[2] ?? 20_000);
const PASSES = Number(process.argv[3] ?? 1_000);
const ORACLE_READS = 200;
const fmt = (ms: number) => (ms < 0.1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
/** The 1-minute load average when a figure is taken: on a shared machine the tail depends on it. */
const load = () => loadavg()[0]!.toFixed(2);
const evmAddress = (): Address => getAddress(`0x${randomBytes(20).toString('hex')}`);

/**
 * p50/p99 (ms) of `n` timed calls of `fn(i)`, after a warm-up of a tenth as many: wall time, and the process's CPU time
 * (user + system, µs resolution) over the same call, which leaves out the time the OS ran other processes: on a shared,
 * overloaded machine the wall tail is mostly that, the CPU figure is what the code itself costs.
 */
async function timed(n: number, fn: (i: number) => unknown | Promise<unknown>) {
  for (let i = 0; i < Math.ceil(n / 10); i++) await fn(i);
  const xs: number[] = [];
  const cs: number[] = [];
  for (let i = 0; i < n; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await fn(i);
    xs.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cs.push((c.user + c.system) / 1000);
  }
  return { p50: pct(xs, 50), p99: pct(xs, 99), cpuP50: pct(cs, 50), cpuP99: pct(cs, 99) };
}

export async function benchScreening(): Promise<Row[]> {
  const { refuseScreened } = await import('@/lib/destinations/refuse-screened');
  const { refuseScreenedByAdapters } = await import('@/lib/destinations/refuse-screened-by-adapters');
  const { screenAddress } = await import('@/lib/screening/screen-address');
  const { configuredAdapters } = await import('@/lib/screening/adapters/adapter-config');
  const { currentList } = await import('@/lib/screening/screening-list');
  const { screenSenders } = await import('@/lib/screening/screen-senders');
  const { toBase58 } = await import('@/lib/chain/tron/address');
  const rows: Row[] = [];
  const ok1ms = (p99: number) => p99 <= 1;

  const noop = await timed(REQUESTS, async () => {});
  rows.push({ name: 'empty async call (timer floor) p50 / p99', value: `${fmt(noop.p50)} / ${fmt(noop.p99)}`, target: 'baseline', ok: null });

  // The withdrawal's destination check, as lib/destinations/check-destination.ts and create-withdrawal.ts run it.
  const screenDestination = async (family: 'evm' | 'tron', to: string) => {
    refuseScreened(family, to);
    await refuseScreenedByAdapters(family, to);
  };
  const evm = Array.from({ length: REQUESTS }, evmAddress);
  const e = await timed(REQUESTS, (i) => screenDestination('evm', evm[i]!));
  rows.push({
    name: 'POST /v1/withdrawals screening, EVM, p50 / p99',
    value: `${fmt(e.p50)} / ${fmt(e.p99)}, CPU p99 ${fmt(e.cpuP99)} (load ${load()})`,
    target: '<= 1 ms p99',
    ok: ok1ms(e.p99),
  });
  const tron = Array.from({ length: REQUESTS }, () => toBase58(`41${randomBytes(20).toString('hex')}`));
  const t = await timed(REQUESTS, (i) => screenDestination('tron', tron[i]!));
  rows.push({
    name: 'POST /v1/withdrawals screening, TRON, p50 / p99',
    value: `${fmt(t.p50)} / ${fmt(t.p99)}, CPU p99 ${fmt(t.cpuP99)} (load ${load()})`,
    target: '<= 1 ms p99',
    ok: ok1ms(t.p99),
  });

  // A watcher pass: 1,000 payments, 10 of them from listed senders, `from` as the decoders give it (lower-case identity).
  const listed = [...currentList().sets.evm].slice(0, 10);
  const transfers = Array.from({ length: 1_000 }, (_, i) => ({
    from: i % 100 === 0 && listed[i / 100] ? listed[i / 100]! : evmAddress().toLowerCase(),
  }));
  if (configuredAdapters().list.length > 0) throw new Error('bench expects no adapter configured');
  // What lib/payments/record-transfers.ts runs per pass: each distinct sender once, then the per-payment verdict.
  let held = 0;
  const pass = await timed(PASSES, async () => {
    const senders = new Set<string>();
    for (const t of transfers) senders.add(t.from);
    const stopped = await screenSenders('evm', senders);
    held = transfers.filter((t) => stopped.has(t.from)).length;
  });
  rows.push({
    name: `watcher pass, 1,000 payments (${held} listed), p50 / p99`,
    value: `${fmt(pass.p50)} / ${fmt(pass.p99)} (load ${load()})`,
    target: '<= 1 ms p99',
    ok: ok1ms(pass.p99) && held === listed.length,
  });
  rows.push({
    name: `  same pass, process CPU time, p50 / p99`,
    value: `${fmt(pass.cpuP50)} / ${fmt(pass.cpuP99)} (load ${load()})`,
    target: '<= 1 ms p99',
    ok: ok1ms(pass.cpuP99),
  });
  // The same pass screened per payment as before (screenAddress on each: a normalised copy, a counter move each), for scale.
  const perPayment = await timed(PASSES, () => {
    held = new Set(transfers.filter((t) => screenAddress('evm', t.from).outcome === 'listed')).size;
  });
  rows.push({
    name: `  same pass, per-payment screenAddress (before), p50 / p99`,
    value: `${fmt(perPayment.p50)} / ${fmt(perPayment.p99)}, CPU p99 ${fmt(perPayment.cpuP99)} (load ${load()})`,
    target: 'for scale',
    ok: null,
  });
  return rows;
}

/** One oracle read per address through an RPC on anvil: what an operator opting in adds (a round trip, no target). */
async function benchOracle(): Promise<Row[]> {
  const { startAnvil } = await import('@/lib/testing/anvil');
  const { deploySanctionsList } = await import('@/lib/testing/sanctions-oracle/deploy-sanctions-list');
  const { setNetworkOverride } = await import('@/lib/chain/network');
  const { resetEnvCache } = await import('@/lib/env');
  const { screenWithAdapters } = await import('@/lib/screening/screen-with-adapters');
  const chain = await startAnvil({ chain: 'ETHEREUM', tokens: [{ asset: 'USDT', decimals: 6 }] });
  try {
    const oracle = await deploySanctionsList(chain);
    setNetworkOverride('live', chain.network('live'), 'ETHEREUM');
    process.env.SCREENING_ORACLE_ADDRESS = oracle.address;
    process.env.SCREENING_ORACLE_CHAINS = 'ETHEREUM';
    resetEnvCache();
    const addrs = Array.from({ length: ORACLE_READS }, evmAddress);
    await oracle.list(addrs[0]!);
    const r = await timed(ORACLE_READS, (i) => screenWithAdapters('evm', addrs[i]!));
    return [
      {
        name: 'sanctions oracle read (anvil, local RPC) p50 / p99',
        value: `${fmt(r.p50)} / ${fmt(r.p99)} (load ${load()})`,
        target: 'opt-in, informational',
        ok: null,
      },
    ];
  } finally {
    delete process.env.SCREENING_ORACLE_ADDRESS;
    resetEnvCache();
    await chain.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await withBenchDatabase(async () => {
    const rows = await benchScreening();
    if (process.env.BENCH_SCREENING_ORACLE !== '0') rows.push(...(await benchOracle()));
    printTable(
      `Screening cost (in-process; ${cpus().length} cores, load average ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')})`,
      rows,
    );
  });
}
