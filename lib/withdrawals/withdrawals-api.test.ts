import { and, count, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditLog, events, ledgerEntries, withdrawals } from '@/db/schema';
import { rowsOf, type Db } from '@/lib/db';
import { postLedgerEntry } from '@/lib/ledger/post-entry';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { Decimal } from '@/lib/money';
import { quotedWithdrawalFee } from './amounts';
import { failWithdrawal } from './finish-withdrawal';

const DEST = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
let creditSeq = 0;

async function credit(db: Db, tenantId: string, amount: string, mode: 'test' | 'live' = 'test') {
  await db.transaction((tx) =>
    postLedgerEntry(tx, {
      tenantId,
      mode,
      amount,
      kind: 'test_credit',
      referenceType: 'test',
      referenceId: `credit-${process.pid}-${++creditSeq}`,
      currency: 'USDT',
    }),
  );
}

async function ledgerSum(db: Db, tenantId: string) {
  const [r] = rowsOf<{ sum: string; balance: string }>(
    await db.execute(sql`select coalesce((select sum(amount) from ledger_entries where tenant_id = ${tenantId} and mode = 'test'), 0)::text as sum,
                                coalesce((select available from balances where tenant_id = ${tenantId} and mode = 'test'), 0)::text as balance`),
  );
  return { sum: Number(r!.sum).toFixed(6), balance: Number(r!.balance).toFixed(6), raw: r! };
}

describe('balance and max', () => {
  it('balance reports available and pending from the ledger, per mode', async () => {
    const t = await createTestTenant();
    await credit(t.db, t.tenant.id, '100');
    await credit(t.db, t.tenant.id, '7', 'live');
    const before = await call('GET', '/v1/withdrawals/balance', { key: t.test });
    const costs = [{ chain: 'BSC', minWithdrawal: '0.01', networkFee: '0.00' }];
    expect(before.body).toEqual({ available: '100.00', pending: '0.00', currency: 'USDT', network: 'BSC', withdrawalCosts: costs });
    const wd = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '10.00', destinationAddress: DEST } });
    expect(wd.status).toBe(201);
    const after = await call('GET', '/v1/withdrawals/balance', { key: t.test });
    expect(after.body).toEqual({ available: '89.90', pending: '10.10', currency: 'USDT', network: 'BSC', withdrawalCosts: costs });
    expect((await call('GET', '/v1/withdrawals/balance', { key: t.live })).body.available).toBe('7.00');
  });

  const cases: [string, string, string, string][] = [
    // balance, rate, maxAmount, estimatedFee (maxAmount = balance / (1 + rate) to the nearest cent, never above the balance)
    ['0', '0.01', '0.00', '0.00'],
    ['0.01', '0', '0.01', '0.00'],
    ['0.01', '0.01', '0.01', '0.00'],
    ['0.01', '0.015', '0.01', '0.00'],
    ['100', '0', '100.00', '0.00'],
    ['100', '0.01', '99.01', '0.99'],
    ['100', '0.015', '98.52', '1.48'],
    ['1234.56', '0', '1234.56', '0.00'],
    ['1234.56', '0.01', '1222.34', '12.22'],
    ['1234.56', '0.015', '1216.32', '18.24'],
    ['34.65', '0.01', '34.31', '0.34'],
    ['10', '0.01', '9.90', '0.10'],
    // A balance with more than two decimals (fees on invoices): the rest below a cent is part of the fee.
    ['34.657', '0', '34.65', '0.007'],
    ['0.005', '0', '0.00', '0.005'],
    // A balance credited before fees were charged in cents (issue 45): the Max rule still empties it.
    ['74.245', '0.01', '73.51', '0.735'],
  ];
  it.each(cases)('balance %s at fee %s: max %s, fee %s; max empties the balance, max + 0.01 fails', async (balance, rate, max, fee) => {
    const t = await createTestTenant({ withdrawalFeeRate: rate });
    if (balance !== '0') await credit(t.db, t.tenant.id, balance);
    const res = await call('GET', '/v1/withdrawals/max', { key: t.test });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      maxAmount: max,
      balance: Number(balance).toFixed(Math.max(2, balance.split('.')[1]?.length ?? 0)),
      feePercent: rate,
      estimatedFee: fee,
      minWithdrawal: '0.01',
      networkFee: '0.00',
      chain: 'BSC',
    });
    const over = await call('POST', '/v1/withdrawals', {
      key: t.test,
      body: { amount: (Number(max) + 0.01).toFixed(2), destinationAddress: DEST },
    });
    expect(over.status).toBe(400);
    expect(over.body.code).toBe('insufficient_balance');
    if (max !== '0.00') {
      const ok = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: max, destinationAddress: DEST } });
      expect(ok.status).toBe(201);
      expect(ok.body).toMatchObject({ amount: max, feeAmount: fee });
      const left = await call('GET', '/v1/withdrawals/balance', { key: t.test });
      expect(left.body.available).toBe('0.00');
      const s = await ledgerSum(t.db, t.tenant.id);
      expect(s.sum).toBe(s.balance);
      // What the event and the audit row say is what the ledger took.
      const [evt] = await t.db
        .select()
        .from(events)
        .where(and(eq(events.subjectId, ok.body.id), eq(events.type, 'withdrawal.created')));
      expect(evt!.data).toMatchObject({ amount: max, feeAmount: fee });
      const [audit] = await t.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.targetId, ok.body.id), eq(auditLog.action, 'withdrawal.created')));
      expect(audit!.after).toMatchObject({ amount: max, feeAmount: fee });
      const entries = await t.db.select().from(ledgerEntries).where(eq(ledgerEntries.referenceId, ok.body.id));
      const byKind = Object.fromEntries(entries.map((e) => [e.kind, Number(e.amount).toFixed(6)]));
      expect(byKind.withdrawal).toBe((-Number(max)).toFixed(6));
      if (fee.replace(/[0.]/g, '') !== '') expect(byKind.withdrawal_fee).toBe((-Number(fee)).toFixed(6));
      const got = await call('GET', `/v1/withdrawals/${ok.body.id}`, { key: t.test });
      expect(got.body.feeAmount).toBe(fee);
    }
  });

  it("the dashboard's fee preview is the fee the statement charges", () => {
    expect(quotedWithdrawalFee(new Decimal('73.51'), '74.245', '0.01', '0').toFixed()).toBe('0.735');
    expect(quotedWithdrawalFee(new Decimal('70.00'), '74.245', '0.01', '0').toFixed()).toBe('0.7');
    expect(quotedWithdrawalFee(new Decimal('34.31'), '34.65', '0.01', '0').toFixed()).toBe('0.34');
    expect(quotedWithdrawalFee(new Decimal('34.30'), '34.65', '0.01', '0').toFixed()).toBe('0.34');
  });

  it('issue 14: balance 34.65 at 1 %: Max 34.31, fee 0.34, nothing left behind (was 34.30 + 0.34, 0.01 stranded)', async () => {
    const t = await createTestTenant({ withdrawalFeeRate: '0.01' });
    await credit(t.db, t.tenant.id, '34.65');
    const max = await call('GET', '/v1/withdrawals/max', { key: t.test });
    expect(max.body).toMatchObject({ maxAmount: '34.31', estimatedFee: '0.34' });
    const wd = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '34.31', destinationAddress: DEST } });
    expect(wd.body).toMatchObject({ amount: '34.31', feeAmount: '0.34' });
    expect((await call('GET', '/v1/withdrawals/balance', { key: t.test })).body.available).toBe('0.00');
    // Below Max the fee is amount × rate in cents as always (0.343 → 0.34).
    await credit(t.db, t.tenant.id, '34.65');
    const less = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '34.30', destinationAddress: DEST } });
    expect(less.body.feeAmount).toBe('0.34');
    expect((await call('GET', '/v1/withdrawals/balance', { key: t.test })).body.available).toBe('0.01');
  });

  /** Waits until some backend is blocked by the transaction of backend `pid` (the withdrawal waiting for the balance row). */
  async function waitForLockWait(db: Db, pid: number) {
    for (let i = 0; i < 500; i++) {
      const rows = rowsOf<{ n: number }>(
        await db.execute(sql`select count(*)::int as n from pg_stat_activity where ${pid}::int = any(pg_blocking_pids(pid))`),
      );
      if (Number(rows[0]!.n) > 0) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('the withdrawal never waited for the balance row');
  }

  it.each([
    // balance read, change committed while the withdrawal waits for the row, amount, fee charged, balance after
    ['credit 1.00 after Max was read: the normal fee, not the Max rule', '34.65', '1.00', '34.31', '0.34', '1.00'],
    ['debit 1.00 turns the amount into the Max: the whole balance goes', '35.65', '-1.00', '34.31', '0.34', '0.00'],
  ])('%s (decided on the locked balance row)', async (_label, start, change, amount, fee, after) => {
    const t = await createTestTenant({ withdrawalFeeRate: '0.01' });
    await credit(t.db, t.tenant.id, start);
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    let pid = 0;
    const tx = t.db.transaction(async (tx) => {
      pid = Number(rowsOf<{ pid: number }>(await tx.execute(sql`select pg_backend_pid() as pid`))[0]!.pid);
      await postLedgerEntry(tx, {
        tenantId: t.tenant.id,
        mode: 'test',
        amount: change,
        kind: 'test_credit',
        referenceType: 'test',
        referenceId: `race-${process.pid}-${++creditSeq}`,
        currency: 'USDT',
      });
      locked();
      await held;
    });
    await isLocked;
    const wd = call('POST', '/v1/withdrawals', { key: t.test, body: { amount, destinationAddress: DEST } });
    await waitForLockWait(t.db, pid);
    release();
    await tx;
    const res = await wd;
    expect(res.status).toBe(201);
    expect(res.body.feeAmount).toBe(fee);
    expect((await call('GET', '/v1/withdrawals/balance', { key: t.test })).body.available).toBe(after);
    const s = await ledgerSum(t.db, t.tenant.id);
    expect(s.sum).toBe(s.balance);
  });
});

describe('POST /v1/withdrawals', () => {
  it('debits amount + fee, creates PENDING and writes withdrawal.created in one go', async () => {
    const t = await createTestTenant({ withdrawalFeeRate: '0.015' });
    await credit(t.db, t.tenant.id, '50');
    const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '12.34', destinationAddress: DEST.toLowerCase() } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      amount: '12.34',
      feeAmount: '0.19',
      netAmount: '12.34',
      status: 'PENDING',
      destinationAddress: DEST,
      chain: 'BSC',
      token: 'USDT',
      txHash: null,
    });
    expect(res.body.id).toMatch(/^wd_/);
    const bal = await call('GET', '/v1/withdrawals/balance', { key: t.test });
    expect(bal.body.available).toBe('37.47');
    const [evt] = await t.db
      .select()
      .from(events)
      .where(and(eq(events.subjectId, res.body.id), eq(events.type, 'withdrawal.created')));
    expect(evt!.data).toMatchObject({ id: res.body.id, amount: '12.34', feeAmount: '0.19', status: 'PENDING' });
    // The audit row is part of the same transaction: who (the key), what, how much.
    const [audit] = await t.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetId, res.body.id), eq(auditLog.action, 'withdrawal.created')));
    expect(audit).toMatchObject({ actorKind: 'api_key', tenantId: t.tenant.id, mode: 'test' });
    expect(audit!.after).toMatchObject({ kind: 'internal', amount: '12.34', feeAmount: '0.19', destinationAddress: DEST });
    const got = await call('GET', `/v1/withdrawals/${res.body.id}`, { key: t.test });
    expect(got.body).toEqual({ ...res.body, networkFeeReserved: '0.00', networkFee: null, networkFeeRefunded: '0.00' });
    const list = await call('GET', '/v1/withdrawals?page=1&limit=10', { key: t.test });
    expect(list.body.meta).toEqual({ total: 1, page: 1, lastPage: 1 });
    expect(list.body.data[0]).toEqual({
      id: res.body.id,
      amount: '12.34',
      feeAmount: '0.19',
      netAmount: '12.34',
      status: 'PENDING',
      destinationAddress: DEST,
      txHash: null,
      createdAt: res.body.createdAt,
    });
    const s = await ledgerSum(t.db, t.tenant.id);
    expect(s.sum).toBe(s.balance);
  });

  it('insufficient_balance names the available balance and the amount + fee needed', async () => {
    const t = await createTestTenant();
    await credit(t.db, t.tenant.id, '5');
    const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '5.00', destinationAddress: DEST } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('insufficient_balance');
    expect(res.body.message).toContain('available 5.00 USDT');
    expect(res.body.message).toContain('5.05 USDT');
    // Refused as a whole: no withdrawal, no event, no audit row, balance untouched.
    const [{ n }] = await t.db.select({ n: count() }).from(withdrawals).where(eq(withdrawals.tenantId, t.tenant.id));
    expect(n).toBe(0);
    const [{ e }] = await t.db
      .select({ e: count() })
      .from(events)
      .where(and(eq(events.tenantId, t.tenant.id), eq(events.type, 'withdrawal.created')));
    expect(e).toBe(0);
    const [{ a }] = await t.db.select({ a: count() }).from(auditLog).where(eq(auditLog.tenantId, t.tenant.id));
    expect(a).toBe(0);
    expect((await call('GET', '/v1/withdrawals/balance', { key: t.test })).body.available).toBe('5.00');
  });

  const bad: [string, Record<string, unknown>, number, string][] = [
    ['amount 0.009', { amount: '0.009' }, 400, 'amount_below_minimum'],
    ['amount 0', { amount: '0' }, 400, 'amount_below_minimum'],
    ['amount -5', { amount: '-5' }, 400, 'invalid_amount'],
    ['amount 1.001', { amount: '1.001' }, 400, 'invalid_amount'],
    ['amount abc', { amount: 'abc' }, 400, 'invalid_amount'],
    ['amount 1e3', { amount: '1e3' }, 400, 'invalid_amount'],
    ['amount as number 1e30', { amount: 1e30 }, 400, 'validation_failed'],
    ['short address', { destinationAddress: '0x1234' }, 400, 'invalid_address'],
    ['non-hex address', { destinationAddress: '0xZZa1f109551bD432803012645Ac136ddd64DBA72' }, 400, 'invalid_address'],
    ['wrong checksum', { destinationAddress: '0x8Ba1f109551bD432803012645Ac136ddd64DBA72' }, 400, 'invalid_address'],
    ['zero address', { destinationAddress: '0x0000000000000000000000000000000000000000' }, 400, 'invalid_address'],
    ['postBackUrl http', { postBackUrl: 'http://example.com/hook' }, 400, 'invalid_url'],
    ['postBackUrl private', { postBackUrl: 'https://10.0.0.1/hook' }, 400, 'invalid_url'],
    ['postBackUrl localhost', { postBackUrl: 'https://localhost/hook' }, 400, 'invalid_url'],
    ['unknown field', { memo: 'x' }, 400, 'validation_failed'],
  ];
  it.each(bad)('%s: 4xx with its code, balance untouched', async (_label, patch, status, code) => {
    const t = await createTestTenant();
    await credit(t.db, t.tenant.id, '100');
    const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '1.00', destinationAddress: DEST, ...patch } });
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect((await call('GET', '/v1/withdrawals/balance', { key: t.test })).body.available).toBe('100.00');
    const [n] = await t.db.select({ n: count() }).from(withdrawals).where(eq(withdrawals.tenantId, t.tenant.id));
    expect(Number(n!.n)).toBe(0);
  });

  it("refuses one of the gateway's deposit addresses", async () => {
    const t = await createTestTenant();
    await credit(t.db, t.tenant.id, '100');
    const inv = await call('POST', '/v1/invoices', { key: t.test, body: { amount: '1.00' } });
    expect(inv.status).toBe(201);
    const res = await call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '1.00', destinationAddress: inv.body.depositAddress } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('destination_deposit_address');
    expect(res.body.message).toContain('deposit address of this gateway');
    // The check runs inside the withdrawal's transaction: nothing of it stays behind.
    const [w] = await t.db.select({ n: count() }).from(withdrawals).where(eq(withdrawals.tenantId, t.tenant.id));
    const [e] = await t.db
      .select({ n: count() })
      .from(events)
      .where(and(eq(events.tenantId, t.tenant.id), eq(events.type, 'withdrawal.created')));
    const [l] = await t.db
      .select({ n: count() })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.tenantId, t.tenant.id), eq(ledgerEntries.kind, 'withdrawal')));
    expect([Number(w!.n), Number(e!.n), Number(l!.n)]).toEqual([0, 0, 0]);
    expect((await call('GET', '/v1/withdrawals/balance', { key: t.test })).body.available).toBe('100.00');
  });
});

describe('never overdraws', () => {
  it('100 concurrent withdrawals of 1.00 on 10.00 at 1%: exactly 9 succeed, balance 0.91', async () => {
    const t = await createTestTenant({ withdrawalFeeRate: '0.01' });
    await credit(t.db, t.tenant.id, '10.00');
    const results = await Promise.all(
      Array.from({ length: 100 }, () => call('POST', '/v1/withdrawals', { key: t.test, body: { amount: '1.00', destinationAddress: DEST } })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(9);
    const refused = results.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(91);
    expect(refused.every((r) => r.status === 400 && r.body.code === 'insufficient_balance')).toBe(true);
    const bal = await call('GET', '/v1/withdrawals/balance', { key: t.test });
    expect(bal.body.available).toBe('0.91');
    const s = await ledgerSum(t.db, t.tenant.id);
    expect(s.sum).toBe(s.balance);
  });

  it('property: random credits, withdrawals and failures keep balance = sum of entries >= 0', async () => {
    const t = await createTestTenant({ withdrawalFeeRate: '0.01' });
    const op = fc.oneof(
      fc.record({ kind: fc.constant('credit' as const), cents: fc.integer({ min: 1, max: 5000 }) }),
      fc.record({ kind: fc.constant('withdraw' as const), cents: fc.integer({ min: 1, max: 5000 }) }),
      fc.record({ kind: fc.constant('fail' as const), pick: fc.nat() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(op, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 6 }), async (rounds) => {
        const ids: string[] = [];
        for (const round of rounds) {
          // Each round runs concurrently: interleavings are up to PostgreSQL.
          await Promise.all(
            round.map(async (o) => {
              if (o.kind === 'credit') return credit(t.db, t.tenant.id, (o.cents / 100).toFixed(2));
              if (o.kind === 'withdraw') {
                const r = await call('POST', '/v1/withdrawals', {
                  key: t.test,
                  body: { amount: (o.cents / 100).toFixed(2), destinationAddress: DEST },
                });
                expect([201, 400]).toContain(r.status);
                if (r.status === 201) ids.push(r.body.id);
                return;
              }
              if (ids.length) await failWithdrawal(t.db, ids[o.pick % ids.length]!, 'test failure');
            }),
          );
          const s = await ledgerSum(t.db, t.tenant.id);
          expect(s.sum).toBe(s.balance);
          expect(Number(s.raw.balance)).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: 15 },
    );
    const [refunds] = await t.db
      .select({ n: count() })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.tenantId, t.tenant.id), eq(ledgerEntries.kind, 'withdrawal_refund')));
    const [failed] = await t.db
      .select({ n: count() })
      .from(withdrawals)
      .where(and(eq(withdrawals.tenantId, t.tenant.id), eq(withdrawals.status, 'FAILED')));
    expect(Number(refunds!.n)).toBe(Number(failed!.n));
  });
});
