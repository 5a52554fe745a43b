import { eq } from 'drizzle-orm';
import { getAddress } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chainTransfers, withdrawals } from '@/db/schema';
import { setNetworkOverride, type Network } from '@/lib/chain/network';
import { resetEnvCache } from '@/lib/env';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import { tapLog } from '@/lib/log';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { startAdapterStub, type StubMode } from '@/lib/testing/screening-adapter-stub';
import { freshAddress } from '@/lib/testing/settled-invoice';
import { withTestChain } from '@/lib/testing/test-chain';
import { freshTronAddress } from '@/lib/testing/tron-lane-helpers';
import { balanceOf, createInvoice, invoiceDetail, sendFromCustomer } from '@/lib/testing/two-rails';
import { creditAsset } from '@/lib/testing/usdc-rails';
import { screenWithAdapters } from '../screen-with-adapters';
import { AdapterConfig, configuredAdapters } from './adapter-config';

/*
 * Issue 46 §1, the optional adapters (Chainalysis's sanctions API, a scoring URL), against a local stub of both
 * services: off by default; listed by one stops the address like the offline list; a timed-out, 5xx or malformed
 * answer is never "clean" (a destination is a 503 with nothing written, a payer's payment is held); keys never
 * reach a log line or an error.
 */
const KEY = 'chainalysis-key-SECRET-5f1e9a';
const SCORE_KEY = 'score-key-SECRET-77ab';
const TORNADO = '0xd90e2f925DA726b50C4Ed8D0Fb90Ad053324F31b';
let stub: Awaited<ReturnType<typeof startAdapterStub>>;
const lines: string[] = [];
let untap: () => void;
beforeAll(async () => {
  stub = await startAdapterStub();
  untap = tapLog((line) => void lines.push(line));
});
afterAll(async () => {
  untap();
  await stub?.close();
});
const VARS = [
  'SCREENING_CHAINALYSIS_API_KEY',
  'SCREENING_CHAINALYSIS_URL',
  'SCREENING_SCORE_URL',
  'SCREENING_SCORE_API_KEY',
  'SCREENING_ADAPTER_TIMEOUT_MS',
  'APP_ENV',
];
const saved = Object.fromEntries(VARS.map((v) => [v, process.env[v]]));
afterEach(() => {
  for (const v of VARS) {
    if (saved[v] === undefined) delete process.env[v];
    else process.env[v] = saved[v];
  }
  resetEnvCache();
  stub.state.mode = 'clean';
  stub.state.listed.clear();
});

function configure(opts: { chainalysis?: boolean; score?: boolean; timeoutMs?: number }) {
  if (opts.chainalysis) {
    process.env.SCREENING_CHAINALYSIS_API_KEY = KEY;
    process.env.SCREENING_CHAINALYSIS_URL = stub.origin;
  }
  if (opts.score) {
    process.env.SCREENING_SCORE_URL = `${stub.origin}/score`;
    process.env.SCREENING_SCORE_API_KEY = SCORE_KEY;
  }
  process.env.SCREENING_ADAPTER_TIMEOUT_MS = String(opts.timeoutMs ?? 5_000);
  resetEnvCache();
}
const mode = (m: StubMode) => void (stub.state.mode = m);
const noSecretIn = (text: string) => {
  expect(text).not.toContain(KEY);
  expect(text).not.toContain(SCORE_KEY);
};

describe('screenWithAdapters', () => {
  it('is the offline list alone by default: no adapter, no request', async () => {
    expect(configuredAdapters().list).toEqual([]);
    const before = stub.requests.length;
    expect((await screenWithAdapters('evm', freshAddress())).outcome).toBe('clean');
    expect(stub.requests.length).toBe(before);
  });

  it('Chainalysis: clean, listed; a 500, a malformed answer and a timeout are errors, never clean; the key goes only in its header', async () => {
    configure({ chainalysis: true, timeoutMs: 5_000 });
    const a = freshAddress();
    expect(await screenWithAdapters('evm', a)).toMatchObject({ outcome: 'clean', by: null });
    const req = stub.requests.at(-1)!;
    expect(req).toMatchObject({ method: 'GET', url: `/api/v1/address/${getAddress(a)}` });
    expect(req.headers['x-api-key']).toBe(KEY);
    mode('listed');
    expect(await screenWithAdapters('evm', a)).toMatchObject({ outcome: 'listed', by: 'chainalysis' });
    // A TRON address goes in its T… form.
    const t = freshTronAddress();
    expect(await screenWithAdapters('tron', t)).toMatchObject({ outcome: 'listed', by: 'chainalysis' });
    expect(stub.requests.at(-1)!.url).toBe(`/api/v1/address/${t}`);
    for (const m of ['error500', 'malformed', 'hang'] as const) {
      mode(m);
      // A short timeout only for the stub that never answers (answers may be slow on a loaded machine).
      if (m === 'hang') configure({ chainalysis: true, timeoutMs: 300 });
      const started = Date.now();
      expect(await screenWithAdapters('evm', a), m).toMatchObject({ outcome: 'error', by: 'chainalysis' });
      expect(Date.now() - started).toBeLessThan(4_000);
    }
    expect(lines.filter((l) => l.includes('screening adapter failed')).map((l) => JSON.parse(l).reason)).toEqual(
      expect.arrayContaining(['http 500', 'malformed answer', 'timeout']),
    );
    // On the offline list: stopped without asking anyone.
    const before = stub.requests.length;
    expect(await screenWithAdapters('evm', TORNADO)).toMatchObject({ outcome: 'listed', by: 'list' });
    expect(stub.requests.length).toBe(before);
    noSecretIn(lines.join('\n'));
  });

  it('scoring URL: a score at the threshold stops, below passes; a bearer key; with Chainalysis too, listed by either stops and a failure of either is an error', async () => {
    configure({ score: true });
    const a = freshAddress();
    expect((await screenWithAdapters('evm', a)).outcome).toBe('clean');
    const req = stub.requests.at(-1)!;
    expect(req).toMatchObject({ method: 'POST', url: '/score' });
    expect(JSON.parse(req.body)).toEqual({ family: 'evm', address: getAddress(a) });
    expect(req.headers.authorization).toBe(`Bearer ${SCORE_KEY}`);
    mode('listed');
    stub.state.score = 75;
    expect(await screenWithAdapters('evm', a)).toMatchObject({ outcome: 'listed', by: 'score_url' });
    stub.state.score = 74.9;
    expect((await screenWithAdapters('evm', a)).outcome).toBe('clean');
    mode('malformed');
    expect((await screenWithAdapters('evm', a)).outcome).toBe('error');

    configure({ chainalysis: true, score: true });
    mode('clean');
    stub.state.listed.add(a.toLowerCase());
    stub.state.score = 99;
    expect((await screenWithAdapters('evm', a)).outcome).toBe('listed');
    stub.state.listed.clear();
    mode('error500');
    expect((await screenWithAdapters('evm', a)).outcome).toBe('error');
    noSecretIn(lines.join('\n'));
  });

  it('configuration is zod-checked: in production a key is never sent over plain HTTP; the issue names the variable, not the key', () => {
    const cfg = { timeoutMs: 300, chainalysis: { url: stub.origin, apiKey: KEY }, scoreUrl: { url: `${stub.origin}/score`, threshold: 75 } };
    expect(AdapterConfig.safeParse({ ...cfg, production: false }).success).toBe(true);
    const prod = AdapterConfig.safeParse({ ...cfg, production: true });
    expect(prod.success).toBe(false);
    expect(prod.error!.issues.map((i) => `${i.path.join('.')}: ${i.message}`)).toEqual([
      'SCREENING_CHAINALYSIS_URL: must be https:// in production (the API key travels with it)',
      'SCREENING_SCORE_URL: must be https:// in production',
    ]);
    noSecretIn(JSON.stringify(prod.error!.issues));
    expect(
      AdapterConfig.safeParse({ ...cfg, production: true, chainalysis: { url: 'https://public.chainalysis.com', apiKey: KEY }, scoreUrl: undefined })
        .success,
    ).toBe(true);
  });
});

let eth: { chain: AnvilChain; net: Network };
withTestChain(
  (c) => {
    const net = c.network('test', { confirmations: 2 });
    setNetworkOverride('test', net, 'ETHEREUM');
    eth = { chain: c, net };
  },
  { chain: 'ETHEREUM', tokens: [{ asset: 'USDT', decimals: 6 }] },
);
const RAIL = { chain: 'ETHEREUM', token: 'USDT' } as const;
const withdraw = (key: string, body: Record<string, string>) => call('POST', '/v1/withdrawals', { key, body });

describe('destinations (POST /v1/withdrawals, anvil)', () => {
  it('listed by an adapter is 400 destination_screened; a timed-out, 5xx or malformed adapter is a 503 with nothing written; clean passes', async () => {
    configure({ chainalysis: true, score: true, timeoutMs: 2_000 });
    const t = await createTestTenant();
    await creditAsset(t.db, t.tenant.id, 'USDT', '50');
    const to = freshAddress();
    stub.state.listed.add(to.toLowerCase());
    const listed = await withdraw(t.test, { amount: '10.00', destinationAddress: to, ...RAIL });
    expect([listed.status, listed.body.code], listed.text).toEqual([400, 'destination_screened']);
    stub.state.listed.clear();
    for (const m of ['hang', 'error500', 'malformed'] as const) {
      mode(m);
      const res = await withdraw(t.test, { amount: '10.00', destinationAddress: to, ...RAIL });
      expect([res.status, res.body.code], `${m}: ${res.text}`).toEqual([503, 'service_unavailable']);
      noSecretIn(res.text);
    }
    expect(await t.db.select().from(withdrawals).where(eq(withdrawals.tenantId, t.tenant.id))).toEqual([]);
    expect((await balanceOf(t.test, 'USDT')).available).toBe('50.00');
    mode('clean');
    const ok = await withdraw(t.test, { amount: '10.00', destinationAddress: to, ...RAIL });
    expect(ok.status, ok.text).toBe(201);
    noSecretIn(lines.join('\n'));
  });
});

describe('payers (watcher, anvil)', () => {
  it('a payment whose sender an adapter could not screen (timeout) is held for review, not credited', async () => {
    const { chain, net } = eth;
    configure({ chainalysis: true, timeoutMs: 200 });
    const t = await createTestTenant();
    const jobs = () => runInvoiceJobs(t.db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
    await jobs();
    const inv = await createInvoice(t.test, { amount: '10.00', ...RAIL });
    mode('hang');
    await sendFromCustomer(chain, 'USDT', inv.depositAddress, '10');
    for (let i = 0; i < 4; i++) {
      await chain.mine(3);
      await jobs();
    }
    const detail = await invoiceDetail(t.test, inv.id);
    expect(detail).toMatchObject({ status: 'PENDING', amountReceived: '0.00' });
    expect(detail.heldPayments).toMatchObject([{ mismatch: 'screening', status: 'held', amount: '10.00' }]);
    expect(await t.db.select().from(chainTransfers).where(eq(chainTransfers.invoiceId, inv.id))).toEqual([]);
    expect((await balanceOf(t.test, 'USDT')).available).toBe('0.00');
  });
});
