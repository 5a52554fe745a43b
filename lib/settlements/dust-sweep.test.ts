import { eq } from 'drizzle-orm';
import type { EvmNetwork } from '@/lib/chain/network';
import { parseUnits } from 'viem';
import { describe, expect, it } from 'vitest';
import { ledgerEntries, settlements } from '@/db/schema';
import { watchChain } from '@/lib/payments/watch-chain';
import type { AnvilChain } from '@/lib/testing/anvil';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { invoiceHelpers } from '@/lib/testing/invoice-helpers';
import { withTestChain } from '@/lib/testing/test-chain';
import { createSettlements } from './create-settlements';
import { runSettlements } from './run-settlements';
import type { SettleNetwork } from './settle-invoice';
import { EVM_ADDRESS_CODEC } from '@/lib/chain/evm/address-codec';

let chain: AnvilChain;
let net: SettleNetwork<EvmNetwork>;
const h = invoiceHelpers(() => chain);

withTestChain(async (c) => {
  chain = c;
  net = { ...c.network('test'), sweepMinimum: '1.00' } as SettleNetwork<EvmNetwork>;
});

const gasNonce = () => chain.client.getTransactionCount({ address: chain.addresses.gas });

async function payAndSettle(t: Awaited<ReturnType<typeof createTestTenant>>, invoiceId: string, amount: string) {
  await h.pay(t.test, invoiceId, amount);
  await chain.mine(5);
  await watchChain(t.db, net);
  await createSettlements(t.db, net);
  await runSettlements(t.db, net);
}

describe('dust is credited only once swept', () => {
  it('payments below the sweep minimum cost no gas; the sweep that crosses it carries them all', async () => {
    const t = await createTestTenant({ invoiceFeeRate: '0.01' });
    await watchChain(t.db, net);
    const inv = await h.create(t.test, { amount: '5.00' });
    const deposit = EVM_ADDRESS_CODEC.parse(inv.depositAddress);
    await payAndSettle(t, inv.id, '5.00');
    expect(await chain.tokenBalance(deposit)).toBe(0n);

    // Two dust payments after the payout: credited, no top-up, tokens stay on the address.
    const nonce = await gasNonce();
    const hot = await chain.tokenBalance(chain.addresses.hot);
    await payAndSettle(t, inv.id, '0.30');
    await payAndSettle(t, inv.id, '0.40');
    expect(await gasNonce()).toBe(nonce);
    expect(await chain.tokenBalance(chain.addresses.hot)).toBe(hot);
    expect(await chain.tokenBalance(deposit)).toBe(parseUnits('0.7', 18));
    // Not credited while it is not in the hot wallet (issue 42 §2): this network has no sweep fee, so dust waits.
    let d = await h.detail(t.test, inv.id);
    expect(d).toMatchObject({ status: 'PAID_OUT', amountReceived: '5.70', amountCredited: '4.95', amountUncollected: '0.70' });
    expect((await call('GET', '/v1/withdrawals/balance', { key: t.test })).body.available).toBe('4.95');
    const deferred = await t.db.select().from(settlements).where(eq(settlements.invoiceId, inv.id));
    expect(deferred.filter((s) => s.sweepDeferred && s.status === 'completed')).toHaveLength(2);

    // 0.50 more: the address holds 1.20, at least the minimum: one top-up, everything swept.
    await payAndSettle(t, inv.id, '0.50');
    expect(await gasNonce()).toBe(nonce + 1);
    expect(await chain.tokenBalance(deposit)).toBe(0n);
    // All of 0.30 + 0.40 + 0.50: the net (1.19) and, since each came after the price was paid, the fee on it (0.01, each in cents),
    // which waits in the hot wallet in case the excess is refunded (issue 30 §2). The fee wallet got nothing of it.
    expect((await chain.tokenBalance(chain.addresses.hot)) - hot).toBe(parseUnits('1.2', 18));
    // Credited now, all of it, with the sweep that moved it.
    d = await h.detail(t.test, inv.id);
    expect(d).toMatchObject({ amountReceived: '6.20', amountCredited: '6.14' });
    expect(d.amountUncollected).toBeUndefined();
    expect((await call('GET', '/v1/withdrawals/balance', { key: t.test })).body.available).toBe('6.14');
    const all = await t.db.select().from(settlements).where(eq(settlements.invoiceId, inv.id));
    const sweeper = all.find((s) => !s.sweepDeferred && s.kind === 'extra')!;
    expect(all.filter((s) => s.sweepDeferred).every((s) => s.carriedBy === sweeper.id)).toBe(true);
    // Each settlement credited exactly once.
    const credits = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.tenantId, t.tenant.id));
    expect(credits.filter((c) => c.kind === 'invoice_credit')).toHaveLength(4);
  });

  it('with a sweep fee, dust worth more than the fee is swept at once and the fee taken from it; less is left, not credited', async () => {
    const charged = { ...net, sweepFee: '0.25' } as SettleNetwork<EvmNetwork>;
    const t = await createTestTenant();
    await watchChain(t.db, charged);
    const settle = async (invoiceId: string, amount: string) => {
      await h.pay(t.test, invoiceId, amount);
      await chain.mine(5);
      await watchChain(t.db, charged);
      await createSettlements(t.db, charged);
      await runSettlements(t.db, charged);
    };
    const a = await h.create(t.test, { amount: '0.60' });
    const hot = await chain.tokenBalance(chain.addresses.hot);
    const nonce = await gasNonce();
    await settle(a.id, '0.60');
    // 0.60 < 1.00: swept anyway, in one transfer to the hot wallet (one top-up); 0.25 of it pays the gas, 0.01 is the 1 % fee (0.006 in cents).
    expect(await chain.tokenBalance(EVM_ADDRESS_CODEC.parse(a.depositAddress))).toBe(0n);
    expect((await chain.tokenBalance(chain.addresses.hot)) - hot).toBe(parseUnits('0.6', 18));
    expect(await gasNonce()).toBe(nonce + 1);
    expect(await h.detail(t.test, a.id)).toMatchObject({ status: 'PAID_OUT', amountCredited: '0.34', feeAmount: '0.26' });
    const [s] = await t.db.select().from(settlements).where(eq(settlements.invoiceId, a.id));
    expect(s).toMatchObject({ sweepFee: '0.250000000000000000', uncollected: false });

    // 0.20 ≤ the fee: left in place, not credited, no gas.
    const b = await h.create(t.test, { amount: '0.20' });
    await settle(b.id, '0.20');
    expect(await gasNonce()).toBe(nonce + 1);
    expect(await h.detail(t.test, b.id)).toMatchObject({ status: 'PAID_OUT', amountCredited: '0.00', amountUncollected: '0.20' });
    expect((await call('GET', '/v1/withdrawals/balance', { key: t.test })).body.available).toBe('0.34');
  });

  it('a dust-sized first payment to many addresses sends no gas top-up at all', async () => {
    const t = await createTestTenant();
    await watchChain(t.db, net);
    const nonce = await gasNonce();
    for (let i = 0; i < 3; i++) {
      const inv = await h.create(t.test, { amount: '0.10' });
      await payAndSettle(t, inv.id, '0.10');
      expect((await h.detail(t.test, inv.id)).status).toBe('PAID_OUT');
    }
    expect(await gasNonce()).toBe(nonce);
  });
});
