import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { exchangeOrders, withdrawalAllowlist } from '@/db/schema';
import { userActor } from '@/lib/audit/audit-merchant-action';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { startTestExchange } from '@/lib/testing/exchange-sim';
import { withTestChain } from '@/lib/testing/test-chain';
import { fundedTenant } from '@/lib/testing/withdrawal-resources';
import { createUser } from '@/lib/users/create-user';
import { addAllowlistAddress } from './add-allowlist-address';
import { updateWithdrawalControls, type OwnerSession } from './update-withdrawal-controls';

let chain: AnvilChain;
let ex: Awaited<ReturnType<typeof startTestExchange>>;
let seq = 0;
const BTC = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const OTHER_BTC = 'bc1q9h7garjuf6r0g8h2xq4m5n6p7r8s9t0u2v3w4x';

withTestChain(async (c) => {
  chain = c;
  await chain.mint(chain.addresses.hot, '100000');
  ex = await startTestExchange(chain);
});
afterAll(async () => {
  await ex?.stop();
});

async function setup() {
  const t = await fundedTenant('500');
  const user = await createUser(t.db, {
    email: `xwc-${process.pid}-${++seq}@example.com`,
    password: 'correct horse battery',
    role: 'owner',
    tenantId: t.tenant.id,
  });
  const s: OwnerSession = { owner: { tenantId: t.tenant.id, mode: 'test' }, user, actor: userActor({ user }) };
  return { ...t, s };
}

const base = { allowlistEnabled: false, coolingOffHours: 24, dailyLimit: null, approvalThreshold: null };
const order = (key: string, over: Record<string, unknown> = {}) =>
  mining(() =>
    call('POST', '/v1/withdrawals/exchange/withdrawal', {
      key,
      body: { type: 'fixed', fromCcy: 'USDTBSC', toCcy: 'BTC', direction: 'from', amount: 50, toAddress: BTC, ...over },
      headers: { 'idempotency-key': `xwc-${++seq}` },
    }),
  );

async function mining<T>(fn: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => void chain.mine(1).catch(() => {}), 100);
  try {
    return await fn();
  } finally {
    clearInterval(timer);
  }
}

const ordersOf = async (t: Awaited<ReturnType<typeof setup>>) =>
  (await t.db.select().from(exchangeOrders).where(eq(exchangeOrders.tenantId, t.tenant.id))).length;

describe('withdrawal controls on exchange withdrawals', () => {
  it("the allow-list holds the other coin's payout address; refused before any order is created", async () => {
    const t = await setup();
    await updateWithdrawalControls(t.db, t.s, { ...base, allowlistEnabled: true });
    const entry = await addAllowlistAddress(t.db, t.s, { address: BTC });
    const cooling = await order(t.test);
    expect(cooling.status).toBe(403);
    expect(cooling.body.code).toBe('destination_not_allowed');
    await t.db
      .update(withdrawalAllowlist)
      .set({ activeAt: new Date(Date.now() - 1000) })
      .where(eq(withdrawalAllowlist.id, entry.id));
    expect((await order(t.test, { toAddress: OTHER_BTC })).body.code).toBe('destination_not_allowed');
    expect(await ordersOf(t)).toBe(0);
    const ok = await order(t.test);
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data.withdrawal.status).toBe('COMPLETED');
  });

  it('above the approval threshold an API key is refused (403 approval_required); the 24 h limit counts exchange withdrawals', async () => {
    const t = await setup();
    await updateWithdrawalControls(t.db, t.s, { ...base, approvalThreshold: '40' });
    expect((await order(t.test)).body.code).toBe('approval_required');
    await updateWithdrawalControls(t.db, t.s, { ...base, dailyLimit: '80' });
    expect((await order(t.test)).status).toBe(200);
    const over = await order(t.test);
    expect(over.status).toBe(400);
    expect(over.body.code).toBe('withdrawal_limit_exceeded');
    expect(over.body.message).toContain('30.00 USD of the 24-hour limit of 80.00 USD');
    expect((await call('GET', '/v1/withdrawals/balance', { key: t.test })).body.available).toBe('450.00');
  });
});
