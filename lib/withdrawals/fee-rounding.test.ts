import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ledgerEntries } from '@/db/schema';
import { rowsOf } from '@/lib/db';
import { settlementFee } from '@/lib/invoices/fee';
import { postLedgerEntry } from '@/lib/ledger/post-entry';
import { Decimal } from '@/lib/money';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { quotedWithdrawalFee, withdrawalFee } from './amounts';

const DEST = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

// Issue 45: a percentage fee is charged rounded half-up to the asset's cents, so the ledger, the API and the screens
// show the same figure and add up exactly ("4.005" was charged and shown before).
describe('fees are charged in cents, half-up', () => {
  it('the fee functions round half-up to two decimals', () => {
    expect(withdrawalFee(new Decimal('267.00'), '0.015', '0').toFixed()).toBe('4.01');
    expect(withdrawalFee(new Decimal('0.50'), '0.01', '4.00').toFixed()).toBe('4.01');
    expect(withdrawalFee(new Decimal('12.34'), '0.015', '0').toFixed()).toBe('0.19');
    expect(withdrawalFee(new Decimal('0.30'), '0.01', '0').toFixed()).toBe('0');
    expect(quotedWithdrawalFee(new Decimal('34.30'), '34.65', '0.01', '0').toFixed()).toBe('0.34');
    expect(settlementFee('267.00', '0.015')).toEqual({ fee: '4.01', net: '262.99' });
    expect(settlementFee('12.50', '0.01')).toEqual({ fee: '0.13', net: '12.37' });
    // A payment of odd base units keeps them in the net: only the fee is in cents.
    expect(settlementFee('10.000001', '0.01')).toEqual({ fee: '0.1', net: '9.900001' });
  });

  it('1.5 % of 267.00: the API says 4.01, the ledger takes 267.00 + 4.01 and sums to the balance', async () => {
    const t = await createTestTenant({ withdrawalFeeRate: '0.015' });
    await t.db.transaction((tx) =>
      postLedgerEntry(tx, {
        tenantId: t.tenant.id,
        mode: 'test',
        amount: '300',
        kind: 'test_credit',
        referenceType: 'test',
        referenceId: `fee-rounding-${process.pid}-${Date.now()}`,
        currency: 'USDT',
      }),
    );
    const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '267.00', destinationAddress: DEST } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ amount: '267.00', feeAmount: '4.01' });
    expect((await call('GET', `/v1/withdrawals/${res.body.id}`, { key: t.test })).body.feeAmount).toBe('4.01');
    const entries = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.referenceId, res.body.id));
    const byKind = Object.fromEntries(entries.map((e) => [e.kind, new Decimal(e.amount).toFixed()]));
    expect(byKind).toEqual({ withdrawal: '-267', withdrawal_fee: '-4.01' });
    expect((await call('GET', '/v1/withdrawals/balance', { key: t.test })).body.available).toBe('28.99');
    const [sums] = rowsOf<{ sum: string; available: string }>(
      await t.db.execute(sql`select (select sum(amount) from ledger_entries where tenant_id = ${t.tenant.id} and mode = 'test')::text as sum,
                                    (select available from balances where tenant_id = ${t.tenant.id} and mode = 'test')::text as available`),
    );
    expect(new Decimal(sums!.sum).eq(sums!.available)).toBe(true);
  });
});
