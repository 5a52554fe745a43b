import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { countStatements } from '@/bench/lib/count-statements';
import { rowsOf } from '@/lib/db';
import { userActor } from '@/lib/audit/audit-merchant-action';
import { postLedgerEntry } from '@/lib/ledger/post-entry';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { createUser } from '@/lib/users/create-user';
import { updateWithdrawalControls, type OwnerSession } from './update-withdrawal-controls';

// Issue 50: the controls are read by the request that uses them (the API key's own query), never cached, and the
// 24 h limit's lock, sum and debit share one round trip in that order.
const DEST = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
let seq = 0;

async function setup() {
  const t = await createTestTenant({ withdrawalFeeRate: '0.01' });
  const user = await createUser(t.db, {
    email: `next-${process.pid}-${++seq}@example.com`,
    password: 'correct horse battery',
    role: 'owner',
    tenantId: t.tenant.id,
  });
  const s: OwnerSession = { owner: { tenantId: t.tenant.id, mode: 'test' }, user, actor: userActor({ user }) };
  await t.db.transaction((tx) =>
    postLedgerEntry(tx, {
      tenantId: t.tenant.id,
      mode: 'test',
      amount: '100',
      kind: 'test_credit',
      referenceType: 'test',
      referenceId: `cnr-${process.pid}-${++seq}`,
      currency: 'USDT',
    }),
  );
  const balance = async () =>
    rowsOf<{ available: string }>(
      await t.db.execute(sql`select available::text from balances where tenant_id = ${t.tenant.id} and mode = 'test'`),
    )[0]!.available;
  return { ...t, s, balance };
}

const controls = (over: Partial<{ allowlistEnabled: boolean; dailyLimit: string | null; approvalThreshold: string | null }>) => ({
  allowlistEnabled: false,
  coolingOffHours: 0,
  dailyLimit: null,
  approvalThreshold: null,
  ...over,
});
const withdraw = (key: string, amount: string) => call('POST', '/v1/withdrawals', { key, body: { amount, destinationAddress: DEST } });

describe('a tightened control applies to the very next request', () => {
  it('a lowered 24 h limit refuses the next withdrawal, and nothing is debited', async () => {
    const t = await setup();
    await updateWithdrawalControls(t.db, t.s, controls({ dailyLimit: '10' }));
    expect((await withdraw(t.test, '3.00')).status).toBe(201);
    const before = await t.balance();
    await updateWithdrawalControls(t.db, t.s, controls({ dailyLimit: '4' }));
    const refused = await withdraw(t.test, '3.00');
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('withdrawal_limit_exceeded');
    expect(refused.body.details).toEqual([{ path: 'amount', message: 'remaining 1' }]);
    expect(await t.balance()).toBe(before);
    expect((await withdraw(t.test, '1.00')).status).toBe(201);
  });

  it('a limit set where there was none refuses the next withdrawal', async () => {
    const t = await setup();
    expect((await withdraw(t.test, '5.00')).status).toBe(201);
    await updateWithdrawalControls(t.db, t.s, controls({ dailyLimit: '5' }));
    expect((await withdraw(t.test, '0.50')).body.code).toBe('withdrawal_limit_exceeded');
  });

  it('an allow-list turned on refuses the next withdrawal to an unlisted address', async () => {
    const t = await setup();
    expect((await withdraw(t.test, '1.00')).status).toBe(201);
    const before = await t.balance();
    await updateWithdrawalControls(t.db, t.s, controls({ allowlistEnabled: true }));
    const refused = await withdraw(t.test, '1.00');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('destination_not_allowed');
    expect(await t.balance()).toBe(before);
  });

  it('with a limit on, the balance lock, the 24 h sum and the debit go in one round trip, in that order', async () => {
    const t = await setup();
    await updateWithdrawalControls(t.db, t.s, controls({ dailyLimit: '50' }));
    expect((await withdraw(t.test, '1.00')).status).toBe(201);
    const port = Number(new URL(process.env.DATABASE_URL!).port || 5432);
    const counted = await countStatements(async () => expect((await withdraw(t.test, '1.00')).status).toBe(201), /for update/i, port);
    const batch = counted.batches.find((b) => b.some((s) => /for update/i.test(s)));
    expect(batch).toHaveLength(3);
    expect(batch![0]).toMatch(/^select 1 from balances .* for update$/);
    expect(batch![1]).toMatch(/sum\(amount\)/);
    expect(batch![2]).toMatch(/^with cur as/);
    // Held locked: that round trip and the commit's.
    expect(counted.lockedRoundTrips).toBe(2);
    // The controls came with the API key's own query (no statement of their own).
    expect(counted.texts.filter((s) => /from "withdrawal_controls"/.test(s))).toEqual([]);
    expect(counted.statements).toBe(6); // authentication, begin, lock, sum, debit, commit
  });
});
