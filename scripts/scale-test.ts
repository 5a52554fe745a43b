/**
 * npm run scale-test: two `next start` processes of the production build behind
 * a round-robin proxy and two workers against one PostgreSQL database, running
 * the whole flow under load (invoices created through the balancer and paid on
 * anvil, settlement, withdrawals, webhook deliveries to receivers of which some
 * fail), then the invariants (lib/testing/invariants.ts). Prints one line per invariant;
 * exits 1 if any fails. SCALE_INVOICES (per tenant, default 12), SCALE_TENANTS (4).
 *
 * Also exports runScenario() for scripts/fault-test.ts.
 */
import { ensureBuild, withBenchDatabase } from '../bench/lib/harness';
import { startCluster, waitForOtherBuilds, type Cluster } from '../bench/lib/cluster';
import { checkInvariants, checkRateLimitAcrossInstances, type InvariantResult } from '@/lib/testing/invariants';
import { runFlow, setupTenants } from '../bench/lib/flow';

export interface ScenarioResult {
  name: string;
  ok: boolean;
  seconds: number;
  invariants: InvariantResult[];
  note: string;
}

export async function runScenario(
  name: string,
  opts: {
    fault?: (c: Cluster, done: () => boolean) => Promise<string | void>;
    tenants?: number;
    invoicesPerTenant?: number;
    withdrawalsPerTenant?: number;
    rateLimit?: boolean;
    env?: Record<string, string>;
    afterPayments?: (c: Cluster) => Promise<void>;
    failingReceiversEverywhere?: boolean;
    timeoutMs?: number;
    exchange?: { perTenant: number; during?: (c: Cluster) => Promise<void> };
    rpcFaults?: boolean;
  } = {},
): Promise<ScenarioResult> {
  const started = Date.now();
  return withBenchDatabase(async (databaseUrl) => {
    const { getDb } = await import('@/lib/db');
    const db = await getDb();
    const c = await startCluster({ databaseUrl, env: opts.env, exchange: Boolean(opts.exchange), rpcFaults: opts.rpcFaults });
    let finished = false;
    try {
      const tenants = await setupTenants(db, c, opts.tenants ?? 4, { failingReceiversEverywhere: opts.failingReceiversEverywhere });
      const faultRun = opts.fault ? opts.fault(c, () => finished) : Promise.resolve();
      let flow;
      try {
        flow = await runFlow(db, c, tenants, {
          invoicesPerTenant: opts.invoicesPerTenant ?? 12,
          withdrawalsPerTenant: opts.withdrawalsPerTenant ?? 3,
          afterPayments: opts.afterPayments ? () => opts.afterPayments!(c) : undefined,
          timeoutMs: opts.timeoutMs,
          exchangeWithdrawalsPerTenant: opts.exchange?.perTenant,
          duringExchange: opts.exchange?.during ? () => opts.exchange!.during!(c) : undefined,
        });
      } finally {
        finished = true;
      }
      const note = (await faultRun) ?? '';
      const invariants = await checkInvariants(db, c, tenants, flow);
      if (opts.rateLimit) invariants.push(await checkRateLimitAcrossInstances(db, c, tenants[0]!.id));
      invariants.push({
        name: 'HTTP 500s seen by clients (retried with the same Idempotency-Key)',
        // An unavailable exchange must be a 502/503 (exchange_error, exchange_busy), never a 500.
        ok: !opts.exchange || flow.stats.http500 === 0,
        detail: `${flow.stats.http500} x 500, ${flow.stats.retries} retries,${flow.stats.resentPayments !== undefined ? ` ${flow.stats.resentPayments} payments re-sent after the reorg,` : ''} ${flow.stats.invoices} invoices, ${flow.stats.withdrawals} withdrawals, ${flow.stats.exchangeWithdrawals ?? 0} exchange withdrawals, proxy split ${c.proxy.counts.join('/')}`,
      });
      return { name, ok: invariants.every((i) => i.ok), seconds: Math.round((Date.now() - started) / 1000), invariants, note };
    } catch (err) {
      const tail = c.log.slice(-15).join('\n');
      return {
        name,
        ok: false,
        seconds: Math.round((Date.now() - started) / 1000),
        invariants: [{ name: 'flow completed', ok: false, detail: `${(err as Error).message}\n${tail}` }],
        note: '',
      };
    } finally {
      finished = true;
      await c.stop();
    }
  });
}

export function printScenario(r: ScenarioResult) {
  console.log(`${r.ok ? 'PASS' : 'FAIL'} ${r.name} (${r.seconds} s)${r.note ? ` — ${r.note}` : ''}`);
  for (const i of r.invariants) console.log(`    ${i.ok ? 'ok ' : 'NO '} ${i.name}: ${i.detail}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await waitForOtherBuilds();
  ensureBuild();
  const r = await runScenario('scale-out: 2 app instances + round-robin proxy + 2 workers', {
    tenants: Number(process.env.SCALE_TENANTS ?? 4),
    invoicesPerTenant: Number(process.env.SCALE_INVOICES ?? 12),
    rateLimit: true,
  });
  printScenario(r);
  process.exit(r.ok ? 0 : 1);
}
