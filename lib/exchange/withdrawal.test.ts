import { eq } from 'drizzle-orm';
import { erc20Abi, parseUnits } from 'viem';
import { afterAll, describe, expect, it } from 'vitest';
import { events, exchangeOrders, withdrawals } from '@/db/schema';
import { tokenArtifact, type AnvilChain } from '@/lib/testing/anvil';
import { withTestChain } from '@/lib/testing/test-chain';
import { call } from '@/lib/testing/app';
import { startTestExchange } from '@/lib/testing/exchange-sim';
import { fundedTenant } from '@/lib/testing/withdrawal-resources';
import { setExchangeOverride } from './config';
import { trackExchangeOrders } from './track-orders';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';

let chain: AnvilChain;
let ex: Awaited<ReturnType<typeof startTestExchange>>;
let seq = 0;
const BTC_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';

withTestChain(async (c) => {
  chain = c;
  await chain.mint(chain.addresses.hot, '100000');
  ex = await startTestExchange(chain);
});
afterAll(async () => {
  await ex?.stop();
});

const balanceOf = async (key: string) => (await call('GET', '/v1/withdrawals/balance', { key })).body.available as string;

/** Mines a block every 100 ms while `fn` runs (the withdrawal waits for 5 confirmations). */
async function mining<T>(fn: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => void chain.mine(1).catch(() => {}), 100);
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}

const body = (over: Record<string, unknown> = {}) => ({
  type: 'fixed',
  fromCcy: 'USDTBSC',
  toCcy: 'BTC',
  direction: 'from',
  amount: 50,
  toAddress: BTC_ADDRESS,
  ...over,
});

describe('automatic exchange withdrawal', () => {
  it('sends the USDT to the deposit address, COMPLETED on confirmation, debits exactly from.amount; the tracker follows the order to DONE', async () => {
    const t = await fundedTenant('100');
    const hotBefore = await chain.tokenBalance(chain.addresses.hot);
    const res = await mining(() =>
      call('POST', '/v1/withdrawals/exchange/withdrawal', { key: t.test, body: body(), headers: { 'idempotency-key': `exw-${++seq}` } }),
    );
    expect(res.status, res.text).toBe(200);
    const { withdrawal, exchangeOrder, txHash } = res.body.data;
    expect(res.body.success).toBe(true);
    expect(res.body.meta.timestamp).toMatch(/Z$/);
    expect(withdrawal.status).toBe('COMPLETED');
    expect(exchangeOrder.status).toBe('NEW');
    expect(txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(exchangeOrder.from.code).toBe('USDTBSC');
    expect(exchangeOrder.from.amount).toBe('50');
    expect(withdrawal.metadata).toMatchObject({
      exchangeOrderId: exchangeOrder.id,
      exchangeToken: exchangeOrder.token,
      fromCurrency: 'USDTBSC',
      toCurrency: 'BTC',
      depositAddress: exchangeOrder.from.address,
      depositAmount: '50',
      expectedAmount: exchangeOrder.to.amount,
    });
    expect(Number(withdrawal.metadata.exchangeFee)).toBeGreaterThan(0);
    expect(await balanceOf(t.test)).toBe('50.00');
    expect(await chain.tokenBalance(EVM_ADDRESS_CODEC.parse(exchangeOrder.from.address))).toBe(parseUnits('50', 18));
    expect(hotBefore - (await chain.tokenBalance(chain.addresses.hot))).toBe(parseUnits('50', 18));

    // The exchange sees the deposit on chain; the tracker records each step until DONE.
    for (let i = 0; i < 60; i++) {
      await chain.mine(1);
      await t.db.update(exchangeOrders).set({ nextCheckAt: new Date() }).where(eq(exchangeOrders.withdrawalId, withdrawal.id));
      await trackExchangeOrders(t.db);
      const [row] = await t.db.select().from(exchangeOrders).where(eq(exchangeOrders.withdrawalId, withdrawal.id));
      if (row!.status === 'DONE') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const [row] = await t.db.select().from(exchangeOrders).where(eq(exchangeOrders.withdrawalId, withdrawal.id));
    expect(row).toMatchObject({ status: 'DONE', state: 'final' });
    expect(row!.recordedAt).not.toBeNull();
    const [w] = await t.db.select().from(withdrawals).where(eq(withdrawals.id, withdrawal.id));
    expect(w!.metadata!.exchangeStatus).toBe('DONE');
    expect(await balanceOf(t.test)).toBe('50.00');

    const details = await call('POST', '/v1/withdrawals/exchange/order/details', {
      key: t.test,
      body: { id: exchangeOrder.id, token: exchangeOrder.token },
    });
    expect(details.status, details.text).toBe(200);
    expect(details.body).toMatchObject({ code: 0, msg: 'OK', data: { id: exchangeOrder.id, status: 'DONE' } });
    expect(details.body.data.time.reg).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(details.body.data.time.finish).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    const wrong = await call('POST', '/v1/withdrawals/exchange/order/details', { key: t.test, body: { id: exchangeOrder.id, token: 'nope' } });
    expect(wrong.status).toBe(404);
  });

  it('a refused order creation debits nothing', async () => {
    const t = await fundedTenant('100');
    const res = await call('POST', '/v1/withdrawals/exchange/withdrawal', { key: t.test, body: body({ toAddress: 'not-a-btc-address' }) });
    expect(res.status, res.text).toBe(400);
    expect(res.body.code).toBe('exchange_rejected');
    expect(await balanceOf(t.test)).toBe('100.00');
    expect(await t.db.select().from(withdrawals).where(eq(withdrawals.tenantId, t.tenant.id))).toHaveLength(0);
    const [row] = await t.db.select().from(exchangeOrders).where(eq(exchangeOrders.tenantId, t.tenant.id));
    expect(row!.state).toBe('failed');
  });

  it('a failed transfer refunds from.amount and emits withdrawal.failed', async () => {
    const t = await fundedTenant('100');
    const { abi } = tokenArtifact();
    await chain.client.waitForTransactionReceipt({ hash: await chain.faucet.writeContract({ address: chain.token, abi, functionName: 'pause' }) });
    let res;
    try {
      res = await call('POST', '/v1/withdrawals/exchange/withdrawal', { key: t.test, body: body({ amount: '30' }) });
    } finally {
      await chain.client.waitForTransactionReceipt({
        hash: await chain.faucet.writeContract({ address: chain.token, abi, functionName: 'unpause' }),
      });
    }
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.withdrawal.status).toBe('FAILED');
    expect(await balanceOf(t.test)).toBe('100.00');
    const types = (await t.db.select().from(events).where(eq(events.subjectId, res.body.data.withdrawal.id))).map((e) => e.type).sort();
    expect(types).toEqual(['withdrawal.created', 'withdrawal.failed']);
    void erc20Abi;
  });

  it('rejects an amount below the minimum and an unknown currency with 400s', async () => {
    const t = await fundedTenant('100');
    const low = await call('POST', '/v1/withdrawals/exchange/withdrawal', { key: t.test, body: body({ amount: 1 }) });
    expect(low.status).toBe(400);
    expect(low.body.code).toBe('amount_out_of_range');
    expect(low.body.message).toMatch(/between 5 and 50000 USDTBSC/);
    const unknown = await call('POST', '/v1/withdrawals/exchange/withdrawal', { key: t.test, body: body({ toCcy: 'NOPECOIN' }) });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('unknown_currency');
    const price = await call('POST', '/v1/withdrawals/exchange/price', { key: t.test, body: body({ amount: 1, toAddress: undefined }) });
    expect(price.status, price.text).toBe(200);
    expect(price.body.data).toMatchObject({ min: '5', max: '50000', errors: ['LIMIT_MIN'] });
    expect(await balanceOf(t.test)).toBe('100.00');
  });

  it('without credentials: available false and 503 exchange_unavailable', async () => {
    const t = await fundedTenant('10');
    setExchangeOverride('test', null);
    try {
      expect((await call('GET', '/v1/withdrawals/exchange/available', { key: t.test })).body).toEqual({ available: false });
      const res = await call('GET', '/v1/withdrawals/exchange/currencies', { key: t.test });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('exchange_unavailable');
    } finally {
      setExchangeOverride('test', ex.config);
    }
    const cur = await call('GET', '/v1/withdrawals/exchange/currencies', { key: t.test });
    expect(cur.body.data.length).toBeGreaterThanOrEqual(60);
    expect(cur.body.data).toContainEqual({ code: 'USDTBSC', coin: 'USDT', network: 'BSC', name: 'Tether (BEP20)', send: true, recv: true });
  });
});
