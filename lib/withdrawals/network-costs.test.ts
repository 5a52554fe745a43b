import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ledgerEntries } from '@/db/schema';
import { getNetwork, setNetworkOverride } from '@/lib/chain/network';
import { Decimal } from '@/lib/money';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { creditAsset, withUsdcRails } from '@/lib/testing/usdc-rails';

/*
 * Issue 30 §4: each network has its own minimum withdrawal and a flat network fee added to the percentage fee,
 * shown by GET /v1/withdrawals/max and the balance. Before, the minimum was 0.01 on every network and nothing paid
 * for the gas: a cent withdrawal on Ethereum cost the operator dollars of gas.
 */
const DEST = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
withUsdcRails();
const ethereumCosts = () =>
  setNetworkOverride('test', { ...getNetwork('test', 'ETHEREUM'), minWithdrawal: '5.00', networkFee: '3.00', sweepMinimum: '25.00' }, 'ETHEREUM');

const withdraw = (key: string, body: Record<string, string>) => call('POST', '/v1/withdrawals', { key, body: { destinationAddress: DEST, ...body } });

describe('network costs on withdrawals', () => {
  it('a withdrawal below the network minimum is refused, naming the asset and the network; nothing is debited', async () => {
    ethereumCosts();
    const t = await createTestTenant({ withdrawalFeeRate: '0.01' });
    await creditAsset(t.db, t.tenant.id, 'USDC', '100');
    const cent = await withdraw(t.test, { amount: '0.01', chain: 'ETHEREUM', token: 'USDC' });
    expect(cent.status, cent.text).toBe(400);
    expect(cent.body.code).toBe('amount_below_minimum');
    expect(cent.body.message).toContain('the minimum withdrawal on Ethereum is 5.00 USDC');
    expect(cent.body.details).toEqual([{ path: 'amount', message: 'must be at least 5.00' }]);
    expect((await call('GET', '/v1/withdrawals/balance?currency=USDC', { key: t.test })).body.available).toBe('100.00');
    // BSC keeps the spec's 0.01 and no flat fee.
    const bsc = await withdraw(t.test, { amount: '0.01', chain: 'BSC', token: 'USDC' });
    expect(bsc.status, bsc.text).toBe(201);
    expect(bsc.body.feeAmount).toBe('0.00'); // 1 % of 0.01 is 0.0001, charged in cents half-up (issue 45);
  });

  it('the flat network fee is added to the percentage fee, as its own ledger entry; Max subtracts it and empties the balance', async () => {
    ethereumCosts();
    const t = await createTestTenant({ withdrawalFeeRate: '0.01' });
    await creditAsset(t.db, t.tenant.id, 'USDC', '100');
    const max = await call('GET', '/v1/withdrawals/max?currency=USDC&chain=ETHEREUM', { key: t.test });
    expect(max.status, max.text).toBe(200);
    // (100 − 3.00) / 1.01 = 96.0396… → 96.04; the fee is what is left: 0.9604 + 3.00 rounded into the balance.
    expect(max.body).toEqual({
      maxAmount: '96.04',
      balance: '100.00',
      feePercent: '0.01',
      estimatedFee: '3.96',
      minWithdrawal: '5.00',
      networkFee: '3.00',
      chain: 'ETHEREUM',
    });
    // Without chain: BSC, the spec's Max (no flat fee).
    expect((await call('GET', '/v1/withdrawals/max?currency=USDC', { key: t.test })).body).toMatchObject({
      maxAmount: '99.01',
      networkFee: '0.00',
      minWithdrawal: '0.01',
      chain: 'BSC',
    });

    const ten = await withdraw(t.test, { amount: '10.00', chain: 'ETHEREUM', token: 'USDC' });
    expect(ten.status, ten.text).toBe(201);
    expect(ten.body).toMatchObject({ amount: '10.00', feeAmount: '3.10', netAmount: '10.00' });
    const entries = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.referenceId, ten.body.id));
    expect(Object.fromEntries(entries.map((e) => [e.kind, new Decimal(e.amount).toFixed(2)]))).toEqual({
      withdrawal: '-10.00',
      withdrawal_fee: '-0.10',
      network_fee: '-3.00',
    });
    const left = await call('GET', '/v1/withdrawals/max?currency=USDC&chain=ETHEREUM', { key: t.test });
    expect(left.body).toMatchObject({ maxAmount: '83.07', balance: '86.90', estimatedFee: '3.83' });
    const all = await withdraw(t.test, { amount: '83.07', chain: 'ETHEREUM', token: 'USDC' });
    expect(all.status, all.text).toBe(201);
    expect(all.body.feeAmount).toBe('3.83');
    expect((await call('GET', '/v1/withdrawals/balance?currency=USDC', { key: t.test })).body.available).toBe('0.00');
    // A balance below the flat fee has nothing to withdraw.
    await creditAsset(t.db, t.tenant.id, 'USDC', '2.50');
    expect((await call('GET', '/v1/withdrawals/max?currency=USDC&chain=ETHEREUM', { key: t.test })).body).toMatchObject({
      maxAmount: '0.00',
      estimatedFee: '2.50',
    });
  });

  it('the balance lists, per network paying the asset, the minimum and the flat fee', async () => {
    ethereumCosts();
    const t = await createTestTenant();
    const res = await call('GET', '/v1/withdrawals/balance?currency=USDC', { key: t.test });
    expect(res.status, res.text).toBe(200);
    expect(res.body.withdrawalCosts).toEqual([
      { chain: 'BSC', minWithdrawal: '0.01', networkFee: '0.00' },
      { chain: 'ETHEREUM', minWithdrawal: '5.00', networkFee: '3.00' },
    ]);
    const unknown = await call('GET', '/v1/withdrawals/max?chain=SOLANA', { key: t.test });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details?.[0]?.path).toBe('chain');
  });
});
