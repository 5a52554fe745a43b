import { Counter, Gauge, Registry } from 'prom-client';
import { currentList } from '@/lib/screening/screening-list';
import { SCREENED_FAMILIES } from '@/lib/screening/snapshot';
import { env } from '@/lib/env';
import type { Db } from '@/lib/db';
import { getNetworks } from '@/lib/chain/network';
import { processMetrics } from '@/lib/metrics/registry';
import { MODES } from '@/lib/mode';
import { latestSolvency } from '@/lib/solvency/latest-run';
import { readHeads } from './read-heads';
import { readQueueFigures } from './queue-figures';

const num = (v: string | number | null | undefined) => (v === null || v === undefined ? NaN : Number(v));

/**
 * Everything /metrics shows: the process's own counters (HTTP, job runs, webhook deliveries) and, read
 * now, the fleet's figures from the database (backlogs, queue, job counters of every worker, the exchange
 * budget, the latest solvency run with its gas wallets) and each enabled network's head block. Only
 * counts and sums: no tenant id, address or amount of a tenant's appears.
 */
export async function collectMetrics(db: Db): Promise<string> {
  const reg = new Registry();
  const gauge = (name: string, help: string, labelNames: string[] = []) => new Gauge({ name, help, labelNames, registers: [reg] });
  const networks = MODES.flatMap((m) => getNetworks(m));
  const [heads, q, solvency] = await Promise.all([readHeads(networks), readQueueFigures(db), latestSolvency(db, { historyRuns: 1 })]);

  const head = gauge('gateway_chain_head_block', 'Head block of each enabled network, read at scrape time.', ['mode', 'chain']);
  const up = gauge(
    'gateway_chain_rpc_up',
    '1 when the network answered its head read (eth_blockNumber; TRON: its JSON-RPC heads) within 3 s at scrape time.',
    ['mode', 'chain'],
  );
  const cursor = gauge('gateway_chain_cursor_block', 'Last block the watcher has fully scanned.', ['mode', 'chain']);
  const lag = gauge('gateway_chain_cursor_lag_blocks', 'Head block minus the watcher cursor.', ['mode', 'chain']);
  for (const net of networks) {
    const labels = { mode: net.mode, chain: net.chain };
    const h = heads.get(`${net.mode}:${net.chain}`);
    up.set(labels, h === undefined ? 0 : 1);
    if (h !== undefined) head.set(labels, h);
    const c = q.cursors.get(`${net.mode}:${net.chainId}`);
    if (c !== undefined) cursor.set(labels, c);
    if (c !== undefined && h !== undefined) lag.set(labels, Math.max(0, h - c));
  }

  const lanes = [
    ['settlement', q.settlements],
    ['withdrawal', q.withdrawals],
  ] as const;
  for (const [lane, rows] of lanes) {
    const backlog = gauge(`gateway_${lane}_backlog`, `Open ${lane}s (pending or processing) per network.`, ['mode', 'chain']);
    const age = gauge(`gateway_${lane}_oldest_age_seconds`, `Age of the oldest open ${lane} per network.`, ['mode', 'chain']);
    for (const net of networks) {
      const r = rows.get(`${net.mode}:${net.chainId}`);
      backlog.set({ mode: net.mode, chain: net.chain }, r?.n ?? 0);
      age.set({ mode: net.mode, chain: net.chain }, r?.oldest ?? 0);
    }
  }

  const stakeQueue = gauge(
    'gateway_settlement_stake_queue',
    "TRON sweeps waiting in the fair queue for the energy wallet's stake (not yet planned) per network.",
    ['mode', 'chain'],
  );
  for (const net of networks) stakeQueue.set({ mode: net.mode, chain: net.chain }, q.stakeQueue.get(`${net.mode}:${net.chainId}`) ?? 0);

  // The SDN screening list (lib/screening): how old the list is, and how many entries each family screens against.
  const list = currentList();
  gauge('gateway_screening_list_age_seconds', 'Seconds since the SDN screening list in use was published (its listDate).').set(
    Math.max(0, Math.floor((Date.now() - Date.parse(`${list.listDate}T00:00:00Z`)) / 1000)),
  );
  const entries = gauge('gateway_screening_list_entries', 'Entries of the SDN screening list per family.', ['family']);
  for (const f of SCREENED_FAMILIES) entries.set({ family: f }, list.sets[f].size);

  gauge('gateway_webhook_queue_depth', 'Deliveries waiting in the webhook queue (due or scheduled for a retry).').set(q.webhookQueue);
  gauge('gateway_webhook_due', 'Deliveries in the queue that are due now.').set(q.webhookDue);
  gauge('gateway_webhook_oldest_due_age_seconds', 'How long the oldest due delivery has been due.').set(q.webhookOldestDue);
  gauge('gateway_webhook_outbox_depth', 'Events written and not yet fanned out to deliveries.').set(q.outbox);

  const used = gauge('gateway_exchange_weight_used', 'Exchange API weight spent in the current window, per API key (first 8 hex of its hash).', [
    'key',
  ]);
  for (const [key, w] of q.exchangeWeight) used.set({ key }, w);
  gauge('gateway_exchange_weight_limit', 'Exchange API weight allowed per window and key.').set(env().EXCHANGE_WEIGHT_LIMIT);

  const runs = new Counter({
    name: 'gateway_job_runs_total',
    help: 'Job runs by every worker and Trigger.dev task.',
    labelNames: ['job'],
    registers: [reg],
  });
  const failures = new Counter({ name: 'gateway_job_failures_total', help: 'Failed job runs, every worker.', labelNames: ['job'], registers: [reg] });
  const seconds = new Counter({
    name: 'gateway_job_run_seconds_total',
    help: 'Time spent in job runs, every worker.',
    labelNames: ['job'],
    registers: [reg],
  });
  const last = gauge('gateway_job_last_run_duration_seconds', 'Duration of the last run of each job.', ['job']);
  const lastAt = gauge('gateway_job_last_run_timestamp_seconds', 'When each job last finished a run (Unix time).', ['job']);
  for (const j of q.jobs) {
    runs.inc({ job: j.name }, j.runs);
    failures.inc({ job: j.name }, j.failures);
    seconds.inc({ job: j.name }, j.durationMs / 1000);
    if (j.lastDurationMs !== null) last.set({ job: j.name }, j.lastDurationMs / 1000);
    if (j.lastRunAt) lastAt.set({ job: j.name }, j.lastRunAt / 1000);
  }

  const run = solvency.run;
  gauge('gateway_solvency_last_run_timestamp_seconds', 'When the latest solvency run finished (Unix time).').set(
    run ? run.finishedAt.getTime() / 1000 : 0,
  );
  const status = gauge('gateway_solvency_run_status', '1 for the status of the latest solvency run (ok, shortfall, error).', ['status']);
  for (const s of ['ok', 'shortfall', 'error']) status.set({ status: s }, run?.status === s ? 1 : 0);
  const diff = gauge('gateway_solvency_difference', 'Held on chain minus owed, per network and token (latest run); absent when unread.', [
    'mode',
    'chain',
    'token',
  ]);
  const held = gauge('gateway_solvency_held', 'Held on chain per network and token (latest run).', ['mode', 'chain', 'token']);
  const owed = gauge('gateway_solvency_owed', 'Owed per network and token (latest run).', ['mode', 'chain', 'token']);
  const readable = gauge('gateway_solvency_line_readable', '1 when the latest run read the line from the chain, 0 when the read failed.', [
    'mode',
    'chain',
    'token',
  ]);
  const gas = gauge('gateway_gas_wallet_balance', 'Gas wallet balance in the network coin (latest solvency run).', ['mode', 'chain', 'coin']);
  const floor = gauge('gateway_gas_wallet_floor', 'Gas wallet floor in the network coin.', ['mode', 'chain', 'coin']);
  for (const l of solvency.lines) {
    if (l.kind === 'token') {
      const labels = { mode: l.mode, chain: l.chain, token: l.asset };
      readable.set(labels, l.status === 'error' ? 0 : 1);
      owed.set(labels, num(l.owed));
      if (l.held !== null) held.set(labels, num(l.held));
      if (l.difference !== null) diff.set(labels, num(l.difference));
    } else {
      const labels = { mode: l.mode, chain: l.chain, coin: l.asset };
      floor.set(labels, num(l.owed));
      if (l.held !== null) gas.set(labels, num(l.held));
    }
  }
  return Registry.merge([processMetrics().registry, reg]).metrics();
}
