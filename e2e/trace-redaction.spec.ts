import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { closeDb } from '@/lib/db';
import { createTestTenant } from '@/lib/testing/fixtures';
import { ANVIL_PORT, stackEnv } from './support/stack-env';

// A third `next start`, exporting its traces (OTLP over HTTP, JSON) to a collector in this process that keeps every
// body in memory: what an operator's collector would receive. Its BSC node is reached through a URL whose path is a
// provider key, its fiat rate feed through one whose query is; both lead to the stack's anvil and to this process.
const PORT = 3103;
const KEY = 'SECRETproviderKEY0123456789abcdef';
const bodies: string[] = [];
let collector: Server;
let app: ChildProcess;
let collectorUrl = '';

test.beforeAll(async () => {
  test.setTimeout(120_000);
  collector = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    if (req.url === '/v1/traces') {
      bodies.push(body);
      res.setHeader('content-type', 'application/json');
      return res.end('{}');
    }
    res.setHeader('content-type', 'application/json');
    if (req.url!.startsWith('/rates/')) return res.end(JSON.stringify({ source: 'feed', rates: { EUR: '1.08' }, at: new Date().toISOString() }));
    // The node behind the keyed URL: the stack's anvil.
    const up = await fetch(`http://127.0.0.1:${ANVIL_PORT}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    res.end(await up.text());
  });
  await new Promise<void>((r) => collector.listen(0, '127.0.0.1', r));
  collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  app = spawn('node_modules/.bin/next', ['start', '-H', '127.0.0.1', '-p', String(PORT)], {
    stdio: 'ignore',
    env: {
      ...process.env,
      APP_ENV: 'test',
      WORKER_INLINE: 'false',
      NEXT_TELEMETRY_DISABLED: '1',
      LOG_LEVEL: 'warn',
      ...stackEnv(),
      TEST_RPC_URL: `${collectorUrl}/v3/${KEY}`,
      FIAT_RATES_URL: `${collectorUrl}/rates/latest?access_key=${KEY}`,
      OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '200',
    },
  });
  await expect.poll(async () => (await fetch(`http://127.0.0.1:${PORT}/api/health`).catch(() => null))?.status, { timeout: 90_000 }).toBe(200);
});

test.afterAll(async () => {
  app?.kill();
  await new Promise<void>((r) => (collector ? collector.close(() => r()) : r()));
  await closeDb();
});

test('the spans `next start` exports hold no claim token, refund link secret, invitation token or provider key', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const base = `http://127.0.0.1:${PORT}`;
  const t = await createTestTenant({ name: 'Traced Shop' });
  const auth = { authorization: `Bearer ${t.test}` };
  // A fiat-priced invoice: its rate is fetched from the keyed feed (whether the answer is used does not matter here).
  await request.post(`${base}/v1/invoices`, { headers: auth, data: { amount: '5.00', currency: 'EUR' } });
  const res = await request.post(`${base}/v1/invoices`, { headers: auth, data: { amount: '5.00' } });
  expect(res.status(), await res.text()).toBe(201);
  const inv = (await res.json()) as { id: string; checkoutUrl: string };
  const token = new URL(inv.checkoutUrl, 'http://x').searchParams.get('claim')!;
  const secret = 'S'.repeat(43);
  const invite = 'I'.repeat(43);
  // Straight requests (the Next server span sees the raw target), and a browser on the checkout (its poll and chunks).
  for (const path of [`/pay/${inv.id}?claim=${token}`, `/refund-claim/${secret}`, `/invite/${invite}`])
    await request.get(`${base}${path}`, { maxRedirects: 0 });
  const page = await browser.newPage();
  await page.goto(`${base}/pay/${inv.id}?claim=${token}`);
  await page.waitForResponse((r) => r.url().endsWith(`/api/pay/${inv.id}/status`));
  await page.close();
  // Readiness reads the node through its keyed URL.
  expect((await request.get(`${base}/api/ready`)).status()).toBeLessThan(600);
  // Wait until the exports show the requests were traced at all (else the checks below could not fail).
  await expect.poll(() => bodies.join('\n'), { timeout: 30_000 }).toContain('/refund-claim/[token]');
  await expect.poll(() => bodies.join('\n'), { timeout: 30_000 }).toContain('/invite/[token]');
  await expect.poll(() => bodies.join('\n'), { timeout: 30_000 }).toContain(`/pay/${inv.id}`);
  await expect.poll(() => bodies.join('\n'), { timeout: 30_000 }).toContain(`fetch POST ${collectorUrl}`);
  await expect.poll(() => bodies.join('\n'), { timeout: 30_000 }).toContain(`fetch GET ${collectorUrl}`);
  const all = bodies.join('\n');
  for (const s of [token, secret, invite, KEY]) expect(all.includes(s), s).toBe(false);
});
