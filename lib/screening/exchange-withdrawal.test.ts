import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { exchangeOrders, withdrawals } from '@/db/schema';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { startTestExchange } from '@/lib/testing/exchange-sim';
import { listAddresses, resetScreeningAfterEach } from '@/lib/testing/screening';
import { freshAddress } from '@/lib/testing/settled-invoice';
import { withTestChain } from '@/lib/testing/test-chain';
import { freshTronAddress } from '@/lib/testing/tron-lane-helpers';
import { fundedTenant } from '@/lib/testing/withdrawal-resources';

/*
 * Issue 46 §2, exchange withdrawals: the exchange's deposit address the hot wallet would pay, and the payout address
 * when it is an EVM or TRON one, are screened; a listed one is 400 destination_screened, nothing is debited and no
 * withdrawal is written (the exchange simulator other tests use, on anvil).
 */
resetScreeningAfterEach();

let chain: AnvilChain;
let ex: Awaited<ReturnType<typeof startTestExchange>>;
let seq = 0;
withTestChain(async (c) => {
  chain = c;
  await chain.mint(chain.addresses.hot, '100000');
  ex = await startTestExchange(chain);
});
afterAll(async () => {
  await ex?.stop();
});

const balanceOf = async (key: string) => (await call('GET', '/v1/withdrawals/balance', { key })).body.available as string;
const exchangeWithdrawal = (key: string, over: Record<string, unknown>) =>
  call('POST', '/v1/withdrawals/exchange/withdrawal', {
    key,
    body: {
      type: 'fixed',
      fromCcy: 'USDTBSC',
      toCcy: 'BTC',
      direction: 'from',
      amount: 50,
      toAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      ...over,
    },
    headers: { 'idempotency-key': `scr-exw-${process.pid}-${++seq}` },
  });

describe('exchange withdrawals to a listed address', () => {
  it('the exchange hands out a listed deposit address: 400 destination_screened, nothing debited, no withdrawal, the order abandoned', async () => {
    const t = await fundedTenant('100');
    const listed = freshAddress().toLowerCase();
    listAddresses(listed);
    const rail = ex.sim.rails.get('USDTBSC')!;
    const own = rail.newDepositAddress;
    rail.newDepositAddress = () => listed;
    try {
      const res = await exchangeWithdrawal(t.test, {});
      expect([res.status, res.body.code], res.text).toEqual([400, 'destination_screened']);
      expect(res.body.message).toMatch(/^depositAddress: is on the sanctions list/);
    } finally {
      rail.newDepositAddress = own;
    }
    expect(await balanceOf(t.test)).toBe('100.00');
    expect(await t.db.select().from(withdrawals).where(eq(withdrawals.tenantId, t.tenant.id))).toEqual([]);
    const orders = await t.db.select().from(exchangeOrders).where(eq(exchangeOrders.tenantId, t.tenant.id));
    expect(orders.map((o) => o.state)).toEqual(['abandoned']);
    expect(await chain.tokenBalance(listed as `0x${string}`)).toBe(0n);
  });

  it('a listed EVM or TRON payout address is refused before any order is placed (nothing debited, no order, no withdrawal)', async () => {
    const t = await fundedTenant('100');
    const evm = freshAddress();
    const tron = freshTronAddress();
    listAddresses(evm, tron);
    for (const [toCcy, toAddress] of [
      ['USDT', evm],
      ['USDTTRC', tron],
    ] as const) {
      const res = await exchangeWithdrawal(t.test, { toCcy, toAddress });
      expect([res.status, res.body.code], `${toCcy}: ${res.text}`).toEqual([400, 'destination_screened']);
      expect(res.body.message).toMatch(/^toAddress: is on the sanctions list/);
    }
    expect(await balanceOf(t.test)).toBe('100.00');
    expect(await t.db.select().from(withdrawals).where(eq(withdrawals.tenantId, t.tenant.id))).toEqual([]);
    expect(await t.db.select().from(exchangeOrders).where(eq(exchangeOrders.tenantId, t.tenant.id))).toEqual([]);
  });
});
