import type { Hex } from 'viem';
import { afterEach, describe, expect, it } from 'vitest';
import { type Network } from '@/lib/chain/network';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { withTestChain } from '@/lib/testing/test-chain';
import { setCheckoutPollOverride } from './poll-checkout';

/*
 * The checkout's public status poll (GET /api/pay/:id/status) is open to anyone: each address gets
 * a per-minute allowance (IPv6 by its /64), and answers are served from a short per-process cache,
 * so a flood of polls costs the database one read per invoice per TTL.
 */
let chain: AnvilChain;
let net: Network;
withTestChain((c) => {
  chain = c;
  net = c.network('test');
});
afterEach(() => setCheckoutPollOverride(undefined));

const poll = (id: string, from: string) => call('GET', `/api/pay/${id}/status`, { headers: { 'x-forwarded-for': from } });
let seq = 0;
const v4 = () => `192.0.2.${(++seq % 250) + 1}`;

describe('checkout status poll', () => {
  it('an address past its per-minute allowance gets 429 with Retry-After; its /64 shares it; other addresses go on', async () => {
    setCheckoutPollOverride({ perAddressPerMinute: 5, cacheMs: 0 });
    const t = await createTestTenant();
    const inv = (await call('POST', '/v1/invoices', { key: t.test, body: { amount: '5.00' } })).body;
    const net64 = `2001:db8:${(Date.now() % 0xffff).toString(16)}:${(process.pid % 0xffff).toString(16)}`;
    const statuses: number[] = [];
    // Twelve polls from addresses of one /64: within at most two minute windows, at most ten are answered.
    for (let i = 1; i <= 12; i++) statuses.push((await poll(inv.id, `${net64}::${i.toString(16)}`)).status);
    expect(statuses.filter((s) => s === 200).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
    const limited = await poll(inv.id, `${net64}::99`);
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'rate_limited' });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Unknown ids count too (scanning for invoices is what the limit is for).
    expect((await poll('inv_00000000000000000000000000', `${net64}::1`)).status).toBe(429);
    expect((await poll(inv.id, v4())).status).toBe(200);
  });

  it('answers come from a short cache: within the TTL a poll repeats the view, after it the new state shows', async () => {
    setCheckoutPollOverride({ cacheMs: 60_000 });
    const t = await createTestTenant();
    await runInvoiceJobs(t.db, net);
    const inv = (await call('POST', '/v1/invoices', { key: t.test, body: { amount: '5.00' } })).body;
    const first = await poll(inv.id, v4());
    expect(first.body).toMatchObject({ status: 'PENDING' });
    const paid = await call('POST', `/v1/test-helpers/invoices/${inv.id}/pay`, { key: t.test, body: { amount: '5.00' } });
    await chain.client.waitForTransactionReceipt({ hash: paid.body.txHash as Hex });
    await runInvoiceJobs(t.db, net);
    // Another payer (another address) within the TTL: the same view, built once.
    const cached = await poll(inv.id, v4());
    expect(cached.body).toMatchObject({ status: 'PENDING', renderedAt: first.body.renderedAt });
    expect(cached.headers.get('cache-control')).toBe('no-store');
    setCheckoutPollOverride({ cacheMs: 0 });
    expect((await poll(inv.id, v4())).body).toMatchObject({ status: 'DETECTED' });
  });
});
