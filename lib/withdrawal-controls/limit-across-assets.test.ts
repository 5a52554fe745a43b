import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { userActor } from '@/lib/audit/audit-merchant-action';
import { rowsOf, type Db } from '@/lib/db';
import { Decimal } from '@/lib/money';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { creditAsset, withUsdcRails } from '@/lib/testing/usdc-rails';
import { createUser } from '@/lib/users/create-user';
import { updateWithdrawalControls } from './update-withdrawal-controls';

/*
 * The 24 h limit is one USD amount over every asset (USDT and USDC count 1:1;
 * docs/withdrawals.md "Withdrawal controls"): withdrawals in two assets share it,
 * also when they arrive at once.
 */
const DEST = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
withUsdcRails();
let seq = 0;

async function setup(balances: { USDT?: string; USDC?: string }, dailyLimit: string) {
  const t = await createTestTenant({ withdrawalFeeRate: '0.01' });
  const user = await createUser(t.db, {
    email: `limit-${process.pid}-${++seq}@example.com`,
    password: 'correct horse battery',
    role: 'owner',
    tenantId: t.tenant.id,
  });
  const s = { owner: { tenantId: t.tenant.id, mode: 'test' as const }, user, actor: userActor({ user }) };
  for (const [asset, amount] of Object.entries(balances)) await creditAsset(t.db, t.tenant.id, asset as 'USDT' | 'USDC', amount);
  await updateWithdrawalControls(t.db, s, { allowlistEnabled: false, coolingOffHours: 24, dailyLimit, approvalThreshold: null });
  return t;
}

const withdraw = (key: string, amount: string, token: 'USDT' | 'USDC') =>
  call('POST', '/v1/withdrawals', { key, body: { amount, destinationAddress: DEST, token } });

/** Per asset: balance = sum of its ledger entries, and the sum of its non-failed withdrawals. */
async function perAsset(db: Db, tenantId: string) {
  return rowsOf<{ currency: string; ledger: string; balance: string; withdrawn: string }>(
    await db.execute(sql`
      select b.currency, b.available::text as balance,
             (select coalesce(sum(amount), 0) from ledger_entries l where l.tenant_id = b.tenant_id and l.mode = b.mode and l.currency = b.currency)::text as ledger,
             (select coalesce(sum(amount), 0) from withdrawals w where w.tenant_id = b.tenant_id and w.mode = b.mode and w.token = b.currency and w.status <> 'FAILED')::text as withdrawn
        from balances b where b.tenant_id = ${tenantId} and b.mode = 'test' order by b.currency`),
  );
}

describe('24 h limit across assets (one USD limit, USDT and USDC 1:1)', () => {
  it('a USDC withdrawal uses what USDT ones left of the limit; the refusal states the remaining allowance in USD', async () => {
    const t = await setup({ USDT: '100', USDC: '100' }, '10');
    expect((await withdraw(t.test, '6.00', 'USDT')).status).toBe(201);
    const over = await withdraw(t.test, '4.50', 'USDC');
    expect(over.status, over.text).toBe(400);
    expect(over.body.code).toBe('withdrawal_limit_exceeded');
    expect(over.body.message).toContain('4.00 USD of the 24-hour limit of 10.00 USD');
    expect(over.body.message).toContain('USDT and USDC count together');
    expect(over.body.details).toEqual([{ path: 'amount', message: 'remaining 4' }]);
    expect((await withdraw(t.test, '4.00', 'USDC')).status).toBe(201);
    const last = await withdraw(t.test, '0.01', 'USDT');
    expect(last.body.code).toBe('withdrawal_limit_exceeded');
    expect((await call('GET', '/v1/withdrawals/controls', { key: t.test })).body).toMatchObject({ dailyLimit: '10.00', dailyRemaining: '0.00' });
  });

  it('a concurrent burst of 1.00 withdrawals in USDT and USDC under a 7.00 limit: exactly 7 succeed in all, no overdraft', async () => {
    const t = await setup({ USDT: '100', USDC: '100' }, '7');
    const burst = Array.from({ length: 60 }, (_, i) => withdraw(t.test, '1.00', i % 2 === 0 ? 'USDT' : 'USDC'));
    const results = await Promise.all(burst);
    expect(results.filter((r) => r.status === 201)).toHaveLength(7);
    expect(results.filter((r) => r.status !== 201).every((r) => r.status === 400 && r.body.code === 'withdrawal_limit_exceeded')).toBe(true);
    const rows = await perAsset(t.db, t.tenant.id);
    expect(rows.reduce((s, r) => s.plus(r.withdrawn), new Decimal(0)).toFixed(2)).toBe('7.00');
    for (const r of rows) {
      expect(new Decimal(r.ledger).eq(r.balance), r.currency).toBe(true);
      // Each debit was amount + 1 % fee of that asset's balance.
      expect(new Decimal(r.balance).eq(new Decimal(100).minus(new Decimal(r.withdrawn).times('1.01'))), r.currency).toBe(true);
    }
  });

  it('a tenant with a USDC balance only (no USDT row to lock): a concurrent burst still stops at the limit', async () => {
    const t = await setup({ USDC: '100' }, '5');
    const results = await Promise.all(Array.from({ length: 40 }, () => withdraw(t.test, '1.00', 'USDC')));
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status !== 201).every((r) => r.body.code === 'withdrawal_limit_exceeded')).toBe(true);
    expect((await perAsset(t.db, t.tenant.id)).map((r) => [r.currency, r.withdrawn])).toEqual([['USDC', '5.000000000000000000']]);
  });
});
