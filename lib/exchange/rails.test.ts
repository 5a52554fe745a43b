import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { exchangeOrders, ledgerEntries, withdrawals } from '@/db/schema';
import type { Network } from '@/lib/chain/network';
import type { Asset } from '@/lib/config/rails';
import { runInvoiceJobs } from '@/lib/jobs/run-invoice-jobs';
import { postLedgerEntry } from '@/lib/ledger/post-entry';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { startTestExchange } from '@/lib/testing/exchange-sim';
import { createTestTenant } from '@/lib/testing/fixtures';
import { withTestChain } from '@/lib/testing/test-chain';
import { clearCurrencyCache } from './currencies';
import { listWithdrawalSources } from './list-withdrawal-sources';
import { trackExchangeOrders } from './track-orders';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';

/*
 * Exchange pay-ins and withdrawals on rails other than BSC USDT: two local
 * chains as the test mode's BSC (USDT and USDC at 18 decimals) and Ethereum
 * (both at 6), with the local exchange watching and paying every token of both.
 */
let bsc: AnvilChain;
let eth: AnvilChain;
let ethNet: Network;
let ex: Awaited<ReturnType<typeof startTestExchange>>;
let seq = 0;
const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

withTestChain((c) => void (bsc = c), {
  tokens: [
    { asset: 'USDT', decimals: 18 },
    { asset: 'USDC', decimals: 18 },
  ],
});
withTestChain(
  async (c) => {
    eth = c;
    ethNet = c.network('test');
    await eth.mint(eth.addresses.hot, '100000', eth.tokenOf('USDC'));
    ex = await startTestExchange([bsc, eth]);
  },
  {
    chain: 'ETHEREUM',
    tokens: [
      { asset: 'USDT', decimals: 6 },
      { asset: 'USDC', decimals: 6 },
    ],
  },
);
afterAll(async () => {
  await ex?.stop();
});

async function fundedTenant(balances: Partial<Record<Asset, string>>) {
  const t = await createTestTenant({ invoiceFeeRate: '0.01' });
  for (const [currency, amount] of Object.entries(balances) as [Asset, string][]) {
    await t.db.transaction((tx) =>
      postLedgerEntry(tx, {
        tenantId: t.tenant.id,
        mode: 'test',
        amount,
        currency,
        kind: 'test_credit',
        referenceType: 'test',
        referenceId: `exr-${process.pid}-${++seq}`,
      }),
    );
  }
  return t;
}

const balanceOf = async (key: string, currency: Asset) =>
  (await call('GET', `/v1/withdrawals/balance?currency=${currency}`, { key })).body.available as string;

/** Mines a block on `chain` every 100 ms while `fn` runs (the withdrawal waits for its confirmations). */
async function mining<T>(chain: AnvilChain, fn: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => void chain.mine(1).catch(() => {}), 100);
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}

const withdrawal = (over: Record<string, unknown> = {}) => ({
  type: 'fixed',
  fromCcy: 'USDC',
  toCcy: 'BTC',
  direction: 'from',
  amount: 50,
  toAddress: BTC_ADDRESS,
  chain: 'ETHEREUM',
  token: 'USDC',
  ...over,
});

describe('exchange on other rails', () => {
  it('an exchange withdrawal from the USDC balance on Ethereum reaches the deposit address in 6-decimal units; USDT is untouched', async () => {
    const t = await fundedTenant({ USDT: '100', USDC: '100' });
    const usdc = eth.tokenOf('USDC');
    const hotBefore = await eth.tokenBalance(eth.addresses.hot, usdc);
    const res = await mining(eth, () =>
      call('POST', '/v1/withdrawals/exchange/withdrawal', { key: t.test, body: withdrawal(), headers: { 'idempotency-key': `exr-${++seq}` } }),
    );
    expect(res.status, res.text).toBe(200);
    const { withdrawal: w, exchangeOrder, txHash } = res.body.data;
    expect(w).toMatchObject({ status: 'COMPLETED', chain: 'ETHEREUM', token: 'USDC' });
    expect(Number(w.amount)).toBe(50);
    expect(txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(exchangeOrder.from).toMatchObject({ code: 'USDC', amount: '50' });
    expect(w.metadata).toMatchObject({ fromCurrency: 'USDC', toCurrency: 'BTC', depositAmount: '50' });
    const deposit = EVM_ADDRESS_CODEC.parse(exchangeOrder.from.address);
    expect(await eth.tokenBalance(deposit, usdc)).toBe(50_000_000n);
    expect(hotBefore - (await eth.tokenBalance(eth.addresses.hot, usdc))).toBe(50_000_000n);
    expect(await bsc.tokenBalance(deposit)).toBe(0n);
    expect(await balanceOf(t.test, 'USDC')).toBe('50.00');
    expect(await balanceOf(t.test, 'USDT')).toBe('100.00');
    const entries = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.referenceId, w.id));
    expect(entries.map((e) => [e.kind, e.currency])).toEqual([['exchange_withdrawal', 'USDC']]);

    // The exchange sees the deposit on Ethereum; the tracker follows the order to DONE.
    for (let i = 0; i < 60; i++) {
      await eth.mine(1);
      await t.db.update(exchangeOrders).set({ nextCheckAt: new Date() }).where(eq(exchangeOrders.withdrawalId, w.id));
      await trackExchangeOrders(t.db);
      const [row] = await t.db.select().from(exchangeOrders).where(eq(exchangeOrders.withdrawalId, w.id));
      if (row!.status === 'DONE') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const [row] = await t.db.select().from(exchangeOrders).where(eq(exchangeOrders.withdrawalId, w.id));
    expect(row).toMatchObject({ status: 'DONE', fromCcy: 'USDC', state: 'final' });
  });

  it('a pay-in for an Ethereum USDC invoice asks the exchange for USDC and its payout pays the invoice', async () => {
    const t = await createTestTenant({ invoiceFeeRate: '0.01' });
    const jobs = () => runInvoiceJobs(t.db, ethNet, { retry: { maxAttempts: 2, backoffMs: 0 } });
    await jobs();
    const q = await call('POST', '/v1/invoices/payin/quote', {
      key: t.test,
      body: { payinCurrency: 'BTC', amount: '50.00', chain: 'ETHEREUM', token: 'USDC' },
    });
    expect(q.status, q.text).toBe(200);
    expect(q.body).toMatchObject({ payinCurrency: 'BTC', amount: '50', currency: 'USDC' });
    // What a payer of this invoice can pay in: not the rail's own code (pay it directly), the other codes yes.
    const listed = async (query: string) => {
      const res = await call('GET', `/v1/invoices/payin/currencies${query}`, { key: t.test });
      expect(res.status, res.text).toBe(200);
      return (res.body.data as { code: string }[]).map((c) => c.code);
    };
    const forEthUsdc = await listed('?chain=ETHEREUM&token=USDC');
    expect(forEthUsdc).toContain('BTC');
    expect(forEthUsdc).toContain('USDTBSC');
    expect(forEthUsdc).not.toContain('USDC');
    const forBscUsdt = await listed('');
    expect(forBscUsdt).toContain('USDC');
    expect(forBscUsdt).not.toContain('USDTBSC');
    expect((await call('GET', '/v1/invoices/payin/currencies?chain=BASE&token=USDC', { key: t.test })).status).toBe(400);
    const res = await call('POST', '/v1/invoices', {
      key: t.test,
      body: { amount: '50.00', chain: 'ETHEREUM', token: 'USDC', payinCurrency: 'BTC' },
    });
    expect(res.status, res.text).toBe(201);
    const inv = res.body;
    expect(inv).toMatchObject({ status: 'PENDING', chain: 'ETHEREUM', token: 'USDC', payinCurrency: 'BTC', payinStatus: 'NEW' });
    const [exo] = await t.db.select().from(exchangeOrders).where(eq(exchangeOrders.invoiceId, inv.id));
    expect(exo).toMatchObject({ state: 'open', purpose: 'payin', fromCcy: 'BTC', toCcy: 'USDC', direction: 'to' });

    expect((await fetch(`${ex.sim.url}/control/orders/${exo!.exchangeId}/deposit`, { method: 'POST', body: '{}' })).status).toBe(200);
    let d: any;
    for (let i = 0; i < 80; i++) {
      await eth.mine(1);
      await jobs();
      await t.db.update(exchangeOrders).set({ nextCheckAt: new Date() }).where(eq(exchangeOrders.id, exo!.id));
      await trackExchangeOrders(t.db);
      d = (await call('GET', `/v1/invoices/${inv.id}`, { key: t.test })).body;
      if (d.status === 'PAID_OUT' && d.payinStatus === 'DONE') break;
      await new Promise((r) => setTimeout(r, 60));
    }
    expect(d).toMatchObject({ status: 'PAID_OUT', amountReceived: '50.00', amountCredited: '49.50', payinStatus: 'DONE' });
    expect(d.payments.map((p: { chain: string }) => p.chain)).toEqual(['ETHEREUM']);
    expect(await balanceOf(t.test, 'USDC')).toBe('49.50');
    expect(await balanceOf(t.test, 'USDT')).toBe('0.00');
  });

  it('a rail the gateway does not enable is a 400 naming the field; nothing is written or ordered', async () => {
    const t = await fundedTenant({ USDT: '100' });
    const ordersBefore = ex.sim.orders.size;
    const cases: [string, Record<string, unknown>, string][] = [
      ['/v1/withdrawals/exchange/withdrawal', withdrawal({ fromCcy: 'USDTPOLY', chain: 'POLYGON', token: 'USDT' }), 'chain'],
      ['/v1/withdrawals/exchange/withdrawal', withdrawal({ fromCcy: 'USDTBSC', chain: 'BSC', token: 'USDC', amount: 20 }), 'withdrawal'],
      ['/v1/invoices', { amount: '50.00', chain: 'POLYGON', token: 'USDT', payinCurrency: 'BTC' }, 'chain'],
      ['/v1/invoices/payin/quote', { payinCurrency: 'BTC', amount: '50.00', chain: 'BASE', token: 'USDC' }, 'chain'],
    ];
    for (const [path, body, field] of cases) {
      const res = await call('POST', path, { key: t.test, body });
      if (field === 'withdrawal') {
        // BSC USDC is enabled here (the chain deploys it): the mismatch is fromCcy, named as such.
        expect(res.status, res.text).toBe(400);
        expect(res.body.details).toEqual([{ path: 'fromCcy', message: expect.stringMatching(/^must be USDCBSC/) }]);
        continue;
      }
      expect(res.status, `${path} ${res.text}`).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.details).toEqual([{ path: field, message: expect.stringMatching(/is not an enabled rail/) }]);
    }
    expect(ex.sim.orders.size).toBe(ordersBefore);
    expect(await t.db.select().from(withdrawals).where(eq(withdrawals.tenantId, t.tenant.id))).toHaveLength(0);
    expect(await t.db.select().from(exchangeOrders).where(eq(exchangeOrders.tenantId, t.tenant.id))).toHaveLength(0);
    expect((await call('GET', '/v1/invoices', { key: t.test })).body.meta.total).toBe(0);
    expect(await balanceOf(t.test, 'USDT')).toBe('100.00');
  });

  it("the dashboard's Pay from lists every enabled rail the exchange takes, BSC USDT first, with its code", async () => {
    const t = await createTestTenant();
    const sources = await listWithdrawalSources(t.db, 'test');
    expect(sources[0]).toEqual({ chain: 'BSC', token: 'USDT', code: 'USDTBSC' });
    expect(sources).toContainEqual({ chain: 'ETHEREUM', token: 'USDC', code: 'USDC' });
    expect(sources).toHaveLength(4);
  });

  it('a rail whose currency the exchange does not list is a 400 unknown_currency; nothing is debited', async () => {
    const t = await fundedTenant({ USDC: '100' });
    ex.sim.unlisted.add('USDC');
    clearCurrencyCache();
    try {
      const w = await call('POST', '/v1/withdrawals/exchange/withdrawal', { key: t.test, body: withdrawal() });
      expect(w.status, w.text).toBe(400);
      expect(w.body).toMatchObject({ code: 'unknown_currency', details: [{ path: 'token' }] });
      expect(w.body.message).toMatch(/does not offer USDC on ETHEREUM/);
      const inv = await call('POST', '/v1/invoices', {
        key: t.test,
        body: { amount: '50.00', chain: 'ETHEREUM', token: 'USDC', payinCurrency: 'BTC' },
      });
      expect(inv.status, inv.text).toBe(400);
      expect(inv.body.code).toBe('unknown_currency');
      // The dashboard's "Pay from" leaves it out rather than guess a code.
      expect((await listWithdrawalSources(t.db, 'test')).map((x) => `${x.chain}:${x.token}`)).not.toContain('ETHEREUM:USDC');
    } finally {
      ex.sim.unlisted.delete('USDC');
      clearCurrencyCache();
    }
    expect(await balanceOf(t.test, 'USDC')).toBe('100.00');
    expect(await t.db.select().from(exchangeOrders).where(eq(exchangeOrders.tenantId, t.tenant.id))).toHaveLength(0);
  });
});
