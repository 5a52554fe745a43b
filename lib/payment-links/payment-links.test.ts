import { type Hex } from 'viem';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api/errors';
import { type Network } from '@/lib/chain/network';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { startTestExchange } from '@/lib/testing/exchange-sim';
import { createTestTenant } from '@/lib/testing/fixtures';
import { withTestChain } from '@/lib/testing/test-chain';
import { createLinkInvoice, type LinkInvoiceLimits } from './create-link-invoice';

let chain: AnvilChain;
let net: Network;
let ex: Awaited<ReturnType<typeof startTestExchange>>;
withTestChain(async (c) => {
  chain = c;
  net = c.network('test');
  ex = await startTestExchange(chain);
});
afterAll(async () => {
  await ex?.stop();
});

const wide: LinkInvoiceLimits = { perAddressPerMinute: 1000, perLinkPerMinute: 1000, maxOpenInvoices: 1000 };
let seq = 0;
const addr = () => `198.51.100.${++seq % 250}`;
const networkFor = () => ({ ...net, depositMnemonic: net.depositMnemonic! });
const slugOf = (link: { url: string }) => link.url.replace('/l/', '');
const open = (db: any, link: { url: string }, amount?: string, limits = wide, clientAddress: string | null = addr()) =>
  createLinkInvoice(db, slugOf(link), { amount, clientAddress }, { limits, networkFor });
/** The error code a page request ended with, or 'ok'. */
const outcome = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e) => {
      if (e instanceof ApiError) return e.code;
      throw e;
    },
  );

async function newLink(key: string, body: Record<string, unknown>) {
  const res = await call('POST', '/v1/payment-links', { key, body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

describe('payment links API', () => {
  it('create, get, list and disable; the link shows its public url and counts', async () => {
    const t = await createTestTenant();
    const link = await newLink(t.test, { name: 'Donation', minAmount: '5', maxAmount: '500', description: 'Thank you' });
    expect(link).toMatchObject({
      name: 'Donation',
      amount: null,
      minAmount: '5.00',
      maxAmount: '500.00',
      currency: 'USDT',
      status: 'active',
      paidCount: 0,
      openCount: 0,
      maxPayments: null,
      invoiceExpiresInMinutes: 30,
    });
    expect(link.id).toMatch(/^plink_/);
    expect(link.url).toMatch(/^\/l\/[A-Za-z0-9_-]{22}$/);
    expect((await call('GET', `/v1/payment-links/${link.id}`, { key: t.test })).body).toEqual(link);
    const second = await newLink(t.test, { name: 'Ticket', amount: '49.00', currency: 'EUR', maxPayments: 30 });
    const list = await call('GET', '/v1/payment-links?limit=1', { key: t.test });
    expect(list.status).toBe(200);
    expect(list.body.data.map((l: any) => l.id)).toEqual([second.id]);
    expect(list.body.meta).toEqual({ total: 2, page: 1, lastPage: 2 });

    const disabled = await call('POST', `/v1/payment-links/${link.id}/disable`, { key: t.test });
    expect(disabled.status, disabled.text).toBe(200);
    expect(disabled.body).toMatchObject({ status: 'disabled' });
    const again = await call('POST', `/v1/payment-links/${link.id}/disable`, { key: t.test });
    expect(again.body.disabledAt).toBe(disabled.body.disabledAt);
    expect(await outcome(open(t.db, link, '10'))).toBe('invalid_state');
  });

  it("another tenant's link is a 404 on every route, and a live key does not see test links", async () => {
    const a = await createTestTenant();
    const b = await createTestTenant();
    const link = await newLink(a.test, { name: 'Mine', amount: '10' });
    for (const [m, p] of [
      ['GET', `/v1/payment-links/${link.id}`],
      ['POST', `/v1/payment-links/${link.id}/disable`],
    ] as const) {
      expect((await call(m, p, { key: b.test })).status).toBe(404);
      expect((await call(m, p, { key: a.live })).status).toBe(404);
    }
    expect((await call('GET', '/v1/payment-links', { key: b.test })).body.data).toEqual([]);
    expect((await call('GET', `/v1/payment-links/${link.id}`, { key: a.test })).body.status).toBe('active');
  });

  it.each([
    [{}, 'name'],
    [{ name: 'x' }, 'amount'],
    [{ name: 'x', amount: '10', minAmount: '1', maxAmount: '20' }, 'amount'],
    [{ name: 'x', minAmount: '1' }, 'maxAmount'],
    [{ name: 'x', minAmount: '30', maxAmount: '20' }, 'minAmount'],
    [{ name: 'x', amount: '0' }, 'amount'],
    [{ name: 'x', amount: '-1' }, 'amount'],
    [{ name: 'x', amount: '1.005' }, 'amount'],
    [{ name: 'x', amount: 10 }, 'amount'],
    [{ name: 'x', amount: '10', currency: 'XYZ' }, 'currency'],
    [{ name: 'x', amount: '10', maxPayments: 0 }, 'maxPayments'],
    [{ name: 'x', amount: '10', expiresAt: '2020-01-01T00:00:00Z' }, 'expiresAt'],
    [{ name: 'x', amount: '10', expiresAt: 'tomorrow' }, 'expiresAt'],
    [{ name: 'x', amount: '10', invoiceExpiresInMinutes: 2 }, 'invoiceExpiresInMinutes'],
    [{ name: 'x', amount: '10', slug: 'mine' }, ''],
  ])('bad input %j is a 400 naming %s, and creates nothing', async (body, path) => {
    const t = await createTestTenant();
    const res = await call('POST', '/v1/payment-links', { key: t.test, body });
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    if (path) expect(res.body.details.map((d: any) => d.path)).toContain(path);
    expect((await call('GET', '/v1/payment-links', { key: t.test })).body.meta.total).toBe(0);
  });

  it('bad list and id input: 400 for a bad page or limit, 404 for a malformed id', async () => {
    const t = await createTestTenant();
    expect((await call('GET', '/v1/payment-links?limit=1000', { key: t.test })).status).toBe(400);
    expect((await call('GET', '/v1/payment-links?page=0', { key: t.test })).status).toBe(400);
    expect((await call('GET', '/v1/payment-links?status=x', { key: t.test })).status).toBe(400);
    expect((await call('GET', '/v1/payment-links/nope', { key: t.test })).status).toBe(404);
    expect((await call('POST', '/v1/payment-links/plink_nope/disable', { key: t.test })).status).toBe(404);
  });
});

describe('per-address limit over IPv6', () => {
  it('addresses of one /64 share one limit (a client gets a whole /64); another /64 has its own; IPv4-mapped is the IPv4 address', async () => {
    const t = await createTestTenant();
    const link = await newLink(t.test, { name: 'IPv6', amount: '10' });
    const limits = { ...wide, perAddressPerMinute: 2 };
    // A /64 of its own for this run (the per-minute counts live in the database).
    const net64 = `2001:db8:${(Date.now() % 0xffff).toString(16)}:${(process.pid % 0xffff).toString(16)}`;
    const results: string[] = [];
    for (let i = 1; i <= 6; i++) results.push(await outcome(open(t.db, link, undefined, limits, `${net64}:${i.toString(16)}::${i}`)));
    // Six addresses of one /64 in at most two minute windows: at most 4 pass.
    expect(results.filter((r) => r === 'ok').length).toBeLessThanOrEqual(4);
    expect(results.filter((r) => r === 'rate_limited').length).toBeGreaterThanOrEqual(2);
    expect(await outcome(open(t.db, link, undefined, limits, `${net64.replace(/:[0-9a-f]+$/, ':ffff')}::1`))).toBe('ok');
    const v4 = `203.0.113.${(Date.now() % 200) + 1}`;
    const mapped: string[] = [];
    for (const a of [v4, `::ffff:${v4}`, v4, `::ffff:${v4}`, v4, `::ffff:${v4}`]) mapped.push(await outcome(open(t.db, link, undefined, limits, a)));
    expect(mapped.filter((r) => r === 'rate_limited').length).toBeGreaterThanOrEqual(2);
  });
});

describe('paying through a link', () => {
  it('each payer gets an invoice of their own carrying the link id; paid twice → two paid invoices, listed by paymentLinkId', async () => {
    const t = await createTestTenant({ invoiceFeeRate: '0.01' });
    const jobs = () => runInvoiceJobs(t.db, net, { retry: { maxAttempts: 2, backoffMs: 0 } });
    await jobs();
    const link = await newLink(t.test, { name: 'Coffee beans', amount: '12.50', description: '1 kg' });
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const inv = await open(t.db, link);
      expect(inv).toMatchObject({
        amountExpected: '12.50',
        paymentLinkId: link.id,
        description: 'Coffee beans: 1 kg',
        metadata: { paymentLinkId: link.id },
      });
      const paid = await call('POST', `/v1/test-helpers/invoices/${inv.id}/pay`, { key: t.test, body: { amount: '12.50' } });
      expect(paid.status, paid.text).toBe(200);
      await chain.client.waitForTransactionReceipt({ hash: paid.body.txHash as Hex });
      ids.push(inv.id);
    }
    await chain.mine(6);
    await jobs();
    const listed = await call('GET', `/v1/invoices?paymentLinkId=${link.id}`, { key: t.test });
    expect(listed.body.data.map((i: any) => i.id).sort()).toEqual([...ids].sort());
    expect(listed.body.data.every((i: any) => i.paymentLinkId === link.id && i.status !== 'PENDING')).toBe(true);
    expect((await call('GET', `/v1/payment-links/${link.id}`, { key: t.test })).body).toMatchObject({ paidCount: 2, openCount: 0 });
    // Another tenant's filter sees nothing.
    const other = await createTestTenant();
    expect((await call('GET', `/v1/invoices?paymentLinkId=${link.id}`, { key: other.test })).body.data).toEqual([]);
  });

  it('a payer-typed amount must be within the bounds (400 amount_out_of_range / invalid_amount), creating nothing', async () => {
    const t = await createTestTenant();
    const link = await newLink(t.test, { name: 'Tip', minAmount: '5', maxAmount: '50' });
    expect(await outcome(open(t.db, link, '4.99'))).toBe('amount_out_of_range');
    expect(await outcome(open(t.db, link, '50.01'))).toBe('amount_out_of_range');
    expect(await outcome(open(t.db, link, 'ten'))).toBe('invalid_amount');
    expect(await outcome(open(t.db, link, '1e3'))).toBe('invalid_amount');
    expect(await outcome(open(t.db, link, undefined))).toBe('invalid_amount');
    expect((await call('GET', `/v1/invoices?paymentLinkId=${link.id}`, { key: t.test })).body.data).toEqual([]);
    expect((await open(t.db, link, '7.25')).amountExpected).toBe('7.25');
    // A fixed link ignores whatever amount is posted.
    const fixed = await newLink(t.test, { name: 'Fixed', amount: '20' });
    expect((await open(t.db, fixed, '1')).amountExpected).toBe('20.00');
  });

  it('the payer may leave an e-mail for a receipt: kept on their invoice; a malformed one creates nothing', async () => {
    const t = await createTestTenant();
    const link = await newLink(t.test, { name: 'Mug', amount: '12' });
    const payer = (customerEmail: string) =>
      createLinkInvoice(t.db, slugOf(link), { customerEmail, clientAddress: addr() }, { limits: wide, networkFor });
    expect(await outcome(payer('mug buyer'))).toBe('validation_failed');
    expect((await call('GET', `/v1/invoices?paymentLinkId=${link.id}`, { key: t.test })).body.data).toEqual([]);
    const inv = await payer(' Ann@Example.com ');
    expect(inv.customerEmail).toBe('ann@example.com');
    expect((await call('GET', `/v1/invoices/${inv.id}`, { key: t.test })).body.customerEmail).toBe('ann@example.com');
    expect(await payer('')).not.toHaveProperty('customerEmail');
  });

  it('a fiat link locks a rate per invoice', async () => {
    const t = await createTestTenant();
    const link = await newLink(t.test, { name: 'Ticket', amount: '50.00', currency: 'EUR' });
    const inv = await open(t.db, link);
    expect(inv).toMatchObject({ priceCurrency: 'EUR', priceAmount: '50.00', rate: '1.08', amountExpected: '54.00', paymentLinkId: link.id });
  });

  it('expired and unknown links create nothing', async () => {
    const t = await createTestTenant();
    const link = await newLink(t.test, { name: 'Soon over', amount: '10', expiresAt: new Date(Date.now() + 1500).toISOString() });
    expect(await outcome(open(t.db, link))).toBe('ok');
    // Wait for the link to show itself expired (no fixed sleep racing the expiry), then a payer gets nothing.
    const status = async () => (await call('GET', `/v1/payment-links/${link.id}`, { key: t.test })).body.status as string;
    const deadline = Date.now() + 15_000;
    while ((await status()) !== 'expired' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await status()).toBe('expired');
    expect(await outcome(open(t.db, link))).toBe('invalid_state');
    expect(await outcome(createLinkInvoice(t.db, 'no-such-slug', { clientAddress: null }, { limits: wide, networkFor }))).toBe('not_found');
  });

  it('a quantity limit is never exceeded: 10 concurrent payers on a limit of 3 get exactly 3 invoices; unpaid ones hold their place', async () => {
    const t = await createTestTenant();
    const link = await newLink(t.test, { name: 'Three seats', amount: '10', maxPayments: 3 });
    const results = await Promise.all(Array.from({ length: 10 }, () => outcome(open(t.db, link))));
    expect(results.filter((r) => r === 'ok')).toHaveLength(3);
    expect(results.filter((r) => r === 'too_many_open_invoices')).toHaveLength(7);
    expect((await call('GET', `/v1/payment-links/${link.id}`, { key: t.test })).body).toMatchObject({ openCount: 3, status: 'sold_out' });
  });

  it('limits: one address past its per-minute limit is refused (429 with Retry-After) while others go on; the open-invoice cap holds', async () => {
    const t = await createTestTenant();
    const link = await newLink(t.test, { name: 'Limited', amount: '10' });
    const me = addr();
    const results: string[] = [];
    for (let i = 0; i < 6; i++) results.push(await outcome(open(t.db, link, undefined, { ...wide, perAddressPerMinute: 2 }, me)));
    expect(results.filter((r) => r === 'ok').length).toBeLessThanOrEqual(4);
    expect(results.filter((r) => r === 'rate_limited').length).toBeGreaterThanOrEqual(2);
    const err = await open(t.db, link, undefined, { ...wide, perAddressPerMinute: 2 }, me).catch((e) => e);
    expect(err.code).toBe('rate_limited');
    expect(Number(err.headers['Retry-After'])).toBeGreaterThan(0);
    expect(await outcome(open(t.db, link, undefined, { ...wide, perAddressPerMinute: 2 }))).toBe('ok');

    const capped = await newLink(t.test, { name: 'Capped', amount: '10' });
    const burst = await Promise.all(Array.from({ length: 6 }, () => outcome(open(t.db, capped, undefined, { ...wide, maxOpenInvoices: 2 }))));
    expect(burst.filter((r) => r === 'ok')).toHaveLength(2);
    expect(burst.filter((r) => r === 'too_many_open_invoices')).toHaveLength(4);

    const busy = await newLink(t.test, { name: 'Busy', amount: '10' });
    const perLink: string[] = [];
    for (let i = 0; i < 6; i++) perLink.push(await outcome(open(t.db, busy, undefined, { ...wide, perLinkPerMinute: 2 })));
    expect(perLink.filter((r) => r === 'rate_limited').length).toBeGreaterThanOrEqual(2);
  });
});
