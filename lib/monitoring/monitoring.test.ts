import { readFileSync } from 'node:fs';
import type { Hex } from 'viem';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setNetworkOverride, type Network } from '@/lib/chain/network';
import { getDb } from '@/lib/db';
import { resetEnvCache } from '@/lib/env';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import { runScheduledJob } from '@/lib/jobs/run-job';
import { tapLog } from '@/lib/log';
import { resetReadyCache, setReadyOverride } from '@/lib/monitoring/ready-figures';
import { runSolvency } from '@/lib/solvency/run-solvency';
import { startRpcFaultProxy } from '@/lib/testing/rpc-fault-proxy';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { withTestChain } from '@/lib/testing/test-chain';
import { startReceiver } from '@/lib/testing/webhook-receiver';
import { runDeliveryLoop } from '@/lib/webhooks/delivery-loop';
import type { LaneNetwork } from '@/lib/withdrawals/lane-helpers';
import { processWithdrawals } from '@/lib/withdrawals/process-withdrawals';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const OPERATOR_TOKEN = 'operator-token-0123456789abcdef';
process.env.METRICS_TOKEN = METRICS_TOKEN;
process.env.OPERATOR_TOKEN = OPERATOR_TOKEN;
process.env.WEBHOOK_ALLOW_PRIVATE_HOSTS = '127.0.0.1';
resetEnvCache();

let chain: AnvilChain;
let net: Network;
withTestChain((c) => {
  chain = c;
  net = c.network('test');
});
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const logLines: string[] = [];
let untap: () => void;
beforeAll(async () => {
  receiver = await startReceiver();
  untap = tapLog((line) => logLines.push(line));
});
afterAll(async () => {
  untap();
  await receiver.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Every family docs/operations.md lists: HTTP, chain, lanes, webhooks, exchange, gas, solvency, jobs. */
const FAMILIES = [
  'gateway_screening_list_age_seconds',
  'gateway_screening_list_entries',
  'gateway_screenings_total',
  'gateway_http_requests_total',
  'gateway_http_request_duration_seconds',
  'gateway_chain_head_block',
  'gateway_chain_rpc_up',
  'gateway_chain_cursor_block',
  'gateway_chain_cursor_lag_blocks',
  'gateway_settlement_backlog',
  'gateway_settlement_oldest_age_seconds',
  'gateway_settlement_stake_queue',
  'gateway_withdrawal_backlog',
  'gateway_withdrawal_oldest_age_seconds',
  'gateway_webhook_queue_depth',
  'gateway_webhook_due',
  'gateway_webhook_oldest_due_age_seconds',
  'gateway_webhook_outbox_depth',
  'gateway_webhook_deliveries_total',
  'gateway_exchange_weight_used',
  'gateway_exchange_weight_limit',
  'gateway_gas_wallet_balance',
  'gateway_gas_wallet_floor',
  'gateway_solvency_difference',
  'gateway_solvency_held',
  'gateway_solvency_owed',
  'gateway_solvency_line_readable',
  'gateway_solvency_run_status',
  'gateway_solvency_last_run_timestamp_seconds',
  'gateway_job_runs_total',
  'gateway_job_failures_total',
  'gateway_job_run_seconds_total',
  'gateway_job_last_run_duration_seconds',
  'gateway_job_last_run_timestamp_seconds',
  'gateway_job_run_duration_seconds',
];

describe('/metrics', () => {
  it('shows every family after a paid invoice, a withdrawal and a webhook, with counts only; only with the token', async () => {
    const db = await getDb();
    const t = await createTestTenant({ invoiceFeeRate: '0.01', withdrawalFeeRate: '0.01' });
    const ep = await call('POST', '/v1/webhooks/endpoints', { key: t.test, body: { url: receiver.url, eventsSubscribed: ['*'] } });
    expect(ep.status, ep.text).toBe(201);
    const jobs = () => runInvoiceJobs(db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
    await jobs();
    const inv = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '10.00' } });
    const pay = await call('POST', `/v1/test-helpers/invoices/${inv.body.id}/pay`, { key: t.test, body: { amount: '10.00' } });
    await chain.client.waitForTransactionReceipt({ hash: pay.body.txHash as Hex });
    for (let i = 0; i < 4; i++) {
      await chain.mine(6);
      await jobs();
    }
    expect((await call('GET', `/v1/invoices/${inv.body.id}`, { key: t.test })).body.status).toBe('PAID_OUT');
    const wd = await call('POST', '/v1/withdrawals', {
      key: t.test,
      body: { amount: '1.00', destinationAddress: '0x8ba1f109551bD432803012645Ac136ddd64DBA72' },
    });
    expect(wd.status, wd.text).toBe(201);
    for (let i = 0; i < 2; i++) {
      await processWithdrawals(db, net as LaneNetwork);
      await chain.mine(6);
    }
    await runDeliveryLoop(db, { signal: new AbortController().signal, runForMs: 1_500 });
    expect(receiver.received.length).toBeGreaterThan(0);
    await runSolvency(db, { modes: ['test'] });
    await runScheduledJob('purge-expired-request-state');

    expect((await call('GET', '/metrics')).status).toBe(401);
    expect((await call('GET', '/metrics', { headers: bearer('wrong-token-0123456789') })).status).toBe(401);
    expect((await call('GET', '/metrics', { headers: bearer(t.test) })).status).toBe(401);
    const res = await call('GET', '/metrics', { headers: bearer(METRICS_TOKEN) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.text;
    const missing = FAMILIES.filter((f) => !new RegExp(`^# TYPE ${f} `, 'm').test(text));
    expect(missing).toEqual([]);
    // Samples for what just happened.
    expect(text).toMatch(/^gateway_http_requests_total\{route="\/v1\/invoices",method="POST",status="201"\} \d+/m);
    expect(text).toMatch(/^gateway_webhook_deliveries_total\{outcome="succeeded"\} [1-9]/m);
    expect(text).toMatch(new RegExp(`^gateway_chain_head_block\\{mode="test",chain="BSC"\\} [1-9]`, 'm'));
    expect(text).toMatch(/^gateway_solvency_difference\{mode="test",chain="BSC",token="USDT"\} /m);
    expect(text).toMatch(/^gateway_gas_wallet_balance\{mode="test",chain="BSC",coin="BNB"\} /m);
    expect(text).toMatch(/^gateway_job_runs_total\{job="purge-expired-request-state"\} [1-9]/m);
    // Counts and sums only: no tenant, invoice, address or key appears.
    for (const secretish of [t.tenant.id, inv.body.id, inv.body.depositAddress, wd.body.id, t.test.slice(0, 16), chain.addresses.hot]) {
      expect(text.toLowerCase()).not.toContain(String(secretish).toLowerCase());
    }
  });

  it('the Grafana dashboard and the alert rules of docs/ use only these families', () => {
    for (const file of ['docs/grafana-dashboard.json', 'docs/prometheus-alerts.yml']) {
      const used = new Set([...readFileSync(file, 'utf8').matchAll(/gateway_[a-z_]+/g)].map((m) => m[0].replace(/_bucket$/, '')));
      expect(
        [...used].filter((f) => !FAMILIES.includes(f)),
        file,
      ).toEqual([]);
      expect(used.size, file).toBeGreaterThan(5);
    }
  });

  it('is off (404) without METRICS_TOKEN', async () => {
    delete process.env.METRICS_TOKEN;
    resetEnvCache();
    try {
      expect((await call('GET', '/metrics', { headers: bearer(METRICS_TOKEN) })).status).toBe(404);
    } finally {
      process.env.METRICS_TOKEN = METRICS_TOKEN;
      resetEnvCache();
    }
  });

  it('the request log line carries the request id the client got, the route template and the status', async () => {
    const t = await createTestTenant();
    const res = await call('GET', '/v1/withdrawals/wd_00000000000000000000000000', { key: t.test });
    expect(res.status).toBe(404);
    const line = logLines.map((l) => JSON.parse(l)).find((l) => l.msg === 'request' && l.requestId === res.headers.get('x-request-id'));
    expect(line).toMatchObject({ level: 'info', method: 'GET', route: '/v1/withdrawals/:id', status: 404 });
    expect(JSON.stringify(line)).not.toContain(t.test);
  });
});

describe('/api/ready and /api/health', () => {
  // Each case reads afresh: the figures of an earlier case (or of another network override) are not reused.
  beforeEach(() => resetReadyCache());
  afterAll(() => setReadyOverride(undefined));

  it('ready while the database, migrations and every enabled network answer; 503 naming the network that does not', async () => {
    expect((await call('GET', '/api/health')).status).toBe(200);
    const ok = await call('GET', '/api/ready');
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ ready: true, database: 'ok', migrations: 'current', networks: { 'test:BSC': 'ok' } });
    setNetworkOverride('test', { ...net, rpcUrl: 'http://127.0.0.1:1' });
    resetReadyCache();
    try {
      const down = await call('GET', '/api/ready');
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ ready: false, database: 'ok', networks: { 'test:BSC': 'unreachable' } });
      expect(down.text).not.toContain('127.0.0.1');
    } finally {
      setNetworkOverride('test', net);
    }
  });

  it('a burst of 50 anonymous requests costs one round of node reads: concurrent callers share one read, later ones its figures', async () => {
    const proxy = await startRpcFaultProxy(net.rpcUrl!);
    setNetworkOverride('test', { ...net, rpcUrl: proxy.url });
    try {
      const answers = await Promise.all(Array.from({ length: 50 }, () => call('GET', '/api/ready')));
      expect(answers.map((a) => a.status)).toEqual(Array(50).fill(200));
      expect(answers.every((a) => a.body.networks['test:BSC'] === 'ok')).toBe(true);
      // The figures stay fresh for a few seconds: another caller right after reads nothing either.
      expect((await call('GET', '/api/ready')).status).toBe(200);
      expect(proxy.state.counts.reduce((a, b) => a + b, 0)).toBe(1);
    } finally {
      setNetworkOverride('test', net);
      await proxy.close();
    }
  });

  it('one address past its allowance gets 429 rate_limited with Retry-After; the operator token is not limited', async () => {
    setReadyOverride({ perAddressPerMinute: 3 });
    const from = { 'x-forwarded-for': '198.51.100.77' };
    for (let i = 0; i < 3; i++) expect((await call('GET', '/api/ready', { headers: from })).status).toBe(200);
    const refused = await call('GET', '/api/ready', { headers: from });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'rate_limited' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await call('GET', '/api/ready', { headers: { ...from, ...bearer(OPERATOR_TOKEN) } })).status).toBe(200);
    setReadyOverride(undefined);
  });
});

describe('/api/operator/solvency', () => {
  it('answers the operator token with the latest run; no token, a wrong one or a tenant key get 401', async () => {
    const t = await createTestTenant();
    await runSolvency(await getDb(), { modes: ['test'] });
    expect((await call('GET', '/api/operator/solvency')).status).toBe(401);
    expect((await call('GET', '/api/operator/solvency', { headers: bearer('nope-nope-nope-nope-nope') })).status).toBe(401);
    const tenantKey = await call('GET', '/api/operator/solvency', { headers: bearer(t.test) });
    expect(tenantKey.status).toBe(401);
    expect(tenantKey.body).toMatchObject({ code: 'invalid_api_key', requestId: expect.stringMatching(/^req_/) });
    const res = await call('GET', '/api/operator/solvency', { headers: bearer(OPERATOR_TOKEN) });
    expect(res.status, res.text).toBe(200);
    expect(res.body.run).toMatchObject({ status: 'ok' });
    const bsc = res.body.lines.find(
      (l: { kind: string; mode: string; chain: string; asset: string }) => l.kind === 'token' && l.mode === 'test' && l.chain === 'BSC',
    );
    expect(bsc).toMatchObject({ asset: 'USDT', blockNumber: expect.any(Number), holdings: expect.any(Array) });
    expect(res.body.history[`token:test:BSC:USDT`].length).toBeGreaterThan(0);
  });
});
