import { describe, expect, it } from 'vitest';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { creditAsset, withUsdcRails } from '@/lib/testing/usdc-rails';
import { Decimal } from '@/lib/money';

/*
 * GET /v1/withdrawals/max?currency= (extension): the Max of one asset's balance,
 * and the balance's `pending` per asset. USDC rails are enabled without a chain.
 */
const DEST = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
const rails = withUsdcRails();

const max = (key: string, currency?: string) => call('GET', `/v1/withdrawals/max${currency ? `?currency=${currency}` : ''}`, { key });
const balance = async (key: string, currency: string) => (await call('GET', `/v1/withdrawals/balance?currency=${currency}`, { key })).body;
const withdraw = (key: string, body: Record<string, string>) => call('POST', '/v1/withdrawals', { key, body: { destinationAddress: DEST, ...body } });

describe('GET /v1/withdrawals/max per asset', () => {
  it('max for USDC is computed from the USDC balance, not a different USDT balance; withdrawing it empties only USDC', async () => {
    const t = await createTestTenant({ withdrawalFeeRate: '0.01' });
    await creditAsset(t.db, t.tenant.id, 'USDT', '100');
    await creditAsset(t.db, t.tenant.id, 'USDC', '50');
    const usdc = await max(t.test, 'USDC');
    expect(usdc.status, usdc.text).toBe(200);
    // The spec's fields, unchanged, and the network's flat fee (none on BSC) and which network.
    expect(usdc.body).toEqual({
      maxAmount: '49.50',
      balance: '50.00',
      feePercent: '0.01',
      estimatedFee: '0.50',
      minWithdrawal: '0.01',
      networkFee: '0.00',
      chain: 'BSC',
    });
    expect((await max(t.test)).body).toMatchObject({ maxAmount: '99.01', balance: '100.00' });
    expect((await max(t.test, 'USDT')).body).toMatchObject({ maxAmount: '99.01', balance: '100.00' });

    const wd = await withdraw(t.test, { amount: '49.50', token: 'USDC' });
    expect(wd.status, wd.text).toBe(201);
    expect(wd.body).toMatchObject({ token: 'USDC', amount: '49.50', feeAmount: '0.50' });
    expect(await balance(t.test, 'USDC')).toMatchObject({ available: '0.00', pending: '50.00', currency: 'USDC' });
    // The USDC withdrawal holds nothing of the USDT balance.
    expect(await balance(t.test, 'USDT')).toMatchObject({ available: '100.00', pending: '0.00', currency: 'USDT' });
    expect((await max(t.test, 'USDC')).body).toMatchObject({ maxAmount: '0.00', balance: '0.00' });
  });

  // balance, asset, chain, rate: odd balances (fees on invoices leave sub-cent rests; USDC on BSC has 18 decimals, on Ethereum 6).
  const odd: [string, 'USDT' | 'USDC', string, string][] = [
    ['10.005', 'USDT', 'BSC', '0.01'],
    ['10.005', 'USDC', 'ETHEREUM', '0.01'],
    ['10.123456', 'USDC', 'ETHEREUM', '0.01'],
    ['0.019999', 'USDC', 'ETHEREUM', '0.015'],
    ['7.777777777777777777', 'USDC', 'BSC', '0.013'],
    ['0.009999', 'USDC', 'ETHEREUM', '0'],
  ];
  it.each(odd)(
    'balance %s %s (%s) at fee %s: max + its fee is the balance, never more; max is withdrawable and max + 0.01 is not',
    async (bal, asset, chain, rate) => {
      const t = await createTestTenant({ withdrawalFeeRate: rate });
      await creditAsset(t.db, t.tenant.id, asset, bal);
      const res = await max(t.test, asset);
      expect(res.status, res.text).toBe(200);
      const m = new Decimal(res.body.maxAmount);
      const fee = new Decimal(res.body.estimatedFee);
      expect(res.body.maxAmount).toMatch(/^\d+\.\d{2}$/);
      expect(new Decimal(res.body.balance).eq(bal)).toBe(true);
      expect(m.plus(fee).eq(bal)).toBe(true);
      expect(m.lte(bal) && fee.gte(0)).toBe(true);

      const over = await withdraw(t.test, { amount: m.plus('0.01').toFixed(2), chain, token: asset });
      expect(over.body.code, over.text).toBe('insufficient_balance');
      if (m.gt(0)) {
        const ok = await withdraw(t.test, { amount: res.body.maxAmount, chain, token: asset });
        expect(ok.status, ok.text).toBe(201);
        expect(new Decimal(ok.body.feeAmount).eq(fee)).toBe(true);
        expect((await balance(t.test, asset)).available).toBe('0.00');
      }
    },
  );

  it('an unknown currency is 400 validation_failed naming currency; so is an asset with no enabled rail', async () => {
    const t = await createTestTenant();
    for (const q of ['BTC', 'usdc', '']) {
      const res = await call('GET', `/v1/withdrawals/max?currency=${q}`, { key: t.test });
      expect(res.status, q).toBe(400);
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.details?.[0]?.path).toBe('currency');
    }
    rails.disable();
    try {
      const off = await max(t.test, 'USDC');
      expect(off.status, off.text).toBe(400);
      expect(off.body).toMatchObject({ code: 'validation_failed', details: [{ path: 'currency' }] });
      expect(off.body.message).toContain('USDC is not enabled');
      expect((await max(t.test, 'USDT')).status).toBe(200);
    } finally {
      rails.enable();
    }
  });
});
