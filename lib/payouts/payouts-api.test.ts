import { and, eq, sql } from 'drizzle-orm';
import { events } from '@/db/schema';
import { completeWithdrawal, failWithdrawal } from '@/lib/withdrawals/finish-withdrawal';
import { describe, expect, it } from 'vitest';
import { rowsOf, type Db } from '@/lib/db';
import { Decimal, formatAmount } from '@/lib/money';
import { call } from '@/lib/testing/app';
import { createTestTenant } from '@/lib/testing/fixtures';
import { freshAddress } from '@/lib/testing/settled-invoice';
import { fundedTenant } from '@/lib/testing/withdrawal-resources';

/*
 * Issue 47: POST /v1/payouts reserves a whole batch in one transaction or nothing. Refusals (a bad row, a
 * shortfall, a reused reference, the loser of a concurrent burst) must leave the tenant's ledger, withdrawals,
 * payouts and events exactly as they were. The chain side (each recipient paid once) is payouts-chain.test.ts.
 */
let ref = 0;
const item = (amount: string, extra: Record<string, unknown> = {}) => ({
  reference: `r-${process.pid}-${Date.now()}-${++ref}`,
  destinationAddress: freshAddress(),
  amount,
  chain: 'BSC',
  token: 'USDT',
  ...extra,
});

/** Everything a payout writes for this tenant. */
async function written(db: Db, tenantId: string) {
  return rowsOf<Record<string, string>>(
    await db.execute(sql`select
      (select count(*) from ledger_entries where tenant_id = ${tenantId})::text as ledger,
      (select coalesce(sum(available), 0) from balances where tenant_id = ${tenantId})::text as balance,
      (select count(*) from withdrawals where tenant_id = ${tenantId})::text as withdrawals,
      (select count(*) from payouts where tenant_id = ${tenantId})::text as payouts,
      (select count(*) from payout_items where tenant_id = ${tenantId})::text as items,
      (select count(*) from events where tenant_id = ${tenantId})::text as events`),
  )[0]!;
}

async function ledgerMatchesBalance(db: Db, tenantId: string) {
  const [r] = rowsOf<{ ledger: string; balance: string }>(
    await db.execute(sql`select
      (select coalesce(sum(amount), 0) from ledger_entries where tenant_id = ${tenantId} and mode = 'test' and currency = 'USDT')::text as ledger,
      (select coalesce(sum(available), 0) from balances where tenant_id = ${tenantId} and mode = 'test' and currency = 'USDT')::text as balance`),
  );
  expect(new Decimal(r!.ledger).eq(r!.balance)).toBe(true);
  return formatAmount(r!.balance);
}

describe('POST /v1/payouts', () => {
  it('debits every item (amount + 1 % fee) at once, one withdrawal each; GET shows it, other tenants get 404', async () => {
    const t = await fundedTenant('100');
    const items = [item('10.00'), item('20.00'), item('5.50')];
    const res = await call('POST', '/v1/payouts', { key: t.test, body: { items } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      status: 'PROCESSING',
      itemCount: 3,
      counts: { pending: 3, completed: 0, failed: 0 },
      totals: [{ token: 'USDT', amount: '35.50', feeAmount: '0.36' }],
    });
    expect(res.body.items.map((i: { reference: string; position: number }) => [i.position, i.reference])).toEqual(
      items.map((x, i) => [i, x.reference]),
    );
    expect(new Set(res.body.items.map((i: { withdrawalId: string }) => i.withdrawalId)).size).toBe(3);
    expect((await call('GET', '/v1/withdrawals/balance', { key: t.test })).body).toMatchObject({ available: '64.14', pending: '35.86' });
    expect(await ledgerMatchesBalance(t.db, t.tenant.id)).toBe('64.14');

    const got = await call('GET', `/v1/payouts/${res.body.id}`, { key: t.test });
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
    const list = await call('GET', '/v1/payouts', { key: t.test });
    expect(list.body.data.map((p: { id: string }) => p.id)).toEqual([res.body.id]);
    const other = await createTestTenant();
    expect((await call('GET', `/v1/payouts/${res.body.id}`, { key: other.test })).status).toBe(404);
    expect((await call('GET', `/v1/payouts/${res.body.id}`, { key: t.live })).status).toBe(404);
  });

  it('is idempotent as a whole: the same Idempotency-Key returns the same payout and debits once', async () => {
    const t = await fundedTenant('100');
    const body = { items: [item('10.00'), item('1.00')] };
    const headers = { 'idempotency-key': `payout-${Date.now()}` };
    const first = await call('POST', '/v1/payouts', { key: t.test, body, headers });
    expect(first.status, first.text).toBe(201);
    const after = await written(t.db, t.tenant.id);
    const again = await call('POST', '/v1/payouts', { key: t.test, body, headers });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await written(t.db, t.tenant.id)).toEqual(after);
  });

  it('is idempotent per item: a reference already paid refuses the new batch (409 duplicate_reference), nothing written', async () => {
    const t = await fundedTenant('100');
    const paid = item('2.00');
    expect((await call('POST', '/v1/payouts', { key: t.test, body: { items: [paid] } })).status).toBe(201);
    const before = await written(t.db, t.tenant.id);
    const res = await call('POST', '/v1/payouts', { key: t.test, body: { items: [item('1.00'), { ...paid, destinationAddress: freshAddress() }] } });
    expect([res.status, res.body.code], res.text).toEqual([409, 'duplicate_reference']);
    expect(res.body.details).toEqual([
      { path: 'items[1].reference', message: expect.stringContaining('already used by payout'), code: 'duplicate_reference' },
    ]);
    expect(await written(t.db, t.tenant.id)).toEqual(before);
  });

  it('refuses the whole batch when the balance is short, naming the shortfall; nothing written', async () => {
    const t = await fundedTenant('30');
    const before = await written(t.db, t.tenant.id);
    const res = await call('POST', '/v1/payouts', { key: t.test, body: { items: [item('10.00'), item('20.00')] } });
    expect([res.status, res.body.code], res.text).toEqual([400, 'insufficient_balance']);
    expect(res.body.details).toEqual([
      { path: 'balance.USDT', message: 'needed 30.30 USDT (amounts 30.00 + fees 0.30), available 30.00, short 0.30', code: 'insufficient_balance' },
    ]);
    expect(await written(t.db, t.tenant.id)).toEqual(before);
  });

  it('one bad row refuses the whole request with every row’s refusal (index and code); nothing written', async () => {
    const t = await fundedTenant('100');
    const before = await written(t.db, t.tenant.id);
    const items = [
      item('1.00'),
      item('1.00', { destinationAddress: '0x1234' }),
      item('0.001'),
      item('1.00', { chain: 'TRON' }),
      item('1.00', { destinationAddress: '0x0000000000000000000000000000000000000000' }),
    ];
    items.push({ ...item('1.00'), reference: items[0]!.reference });
    const res = await call('POST', '/v1/payouts', { key: t.test, body: { items } });
    expect([res.status, res.body.code], res.text).toEqual([400, 'payout_items_invalid']);
    const byRow = res.body.details.map((d: { path: string; code: string }) => [d.path, d.code]);
    expect(byRow).toEqual(
      expect.arrayContaining([
        ['items[1].destinationAddress', 'invalid_address'],
        ['items[2].amount', 'amount_below_minimum'],
        ['items[4].destinationAddress', 'invalid_address'],
        ['items[5].reference', 'duplicate_reference'],
      ]),
    );
    // TRON is not enabled in this test mode, or its T… form refuses the 0x address: either way row 3 is refused.
    expect(byRow.some(([p]: [string]) => p.startsWith('items[3]'))).toBe(true);
    expect(byRow.some(([p]: [string]) => p.startsWith('items[0]'))).toBe(false);
    expect(await written(t.db, t.tenant.id)).toEqual(before);
  });

  it('refuses more than 1,000 items and an empty batch (400 validation_failed)', async () => {
    const t = await fundedTenant('10');
    const many = Array.from({ length: 1001 }, () => item('0.01'));
    expect((await call('POST', '/v1/payouts', { key: t.test, body: { items: many } })).body.code).toBe('validation_failed');
    expect((await call('POST', '/v1/payouts', { key: t.test, body: { items: [] } })).body.code).toBe('validation_failed');
  });

  it('a concurrent burst of two batches that together exceed the balance: exactly one is debited', async () => {
    const t = await fundedTenant('100');
    const batch = () => ({ items: [item('30.00'), item('30.00')] });
    const [a, b] = await Promise.all([
      call('POST', '/v1/payouts', { key: t.test, body: batch() }),
      call('POST', '/v1/payouts', { key: t.test, body: batch() }),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses, `${a.text}\n${b.text}`).toEqual([201, 400]);
    expect([a, b].find((r) => r.status === 400)!.body.code).toBe('insufficient_balance');
    const w = await written(t.db, t.tenant.id);
    expect([w.payouts, w.items, w.withdrawals]).toEqual(['1', '2', '2']);
    expect(await ledgerMatchesBalance(t.db, t.tenant.id)).toBe('39.40');
  });

  it('items follow their withdrawals: item events, the failed item refunded, payout.completed once after the last', async () => {
    const t = await fundedTenant('100');
    const res = await call('POST', '/v1/payouts', { key: t.test, body: { items: [item('10.00'), item('20.00')] } });
    expect(res.status, res.text).toBe(201);
    const [a, b] = res.body.items as { withdrawalId: string }[];
    await failWithdrawal(t.db, a!.withdrawalId, 'execution reverted');
    expect((await call('GET', `/v1/payouts/${res.body.id}`, { key: t.test })).body).toMatchObject({
      status: 'PROCESSING',
      counts: { pending: 1, completed: 0, failed: 1 },
    });
    await completeWithdrawal(t.db, b!.withdrawalId);
    expect(await failWithdrawal(t.db, a!.withdrawalId, 'again')).toBeNull();
    const done = await call('GET', `/v1/payouts/${res.body.id}`, { key: t.test });
    expect(done.body).toMatchObject({ status: 'COMPLETED', counts: { pending: 0, completed: 1, failed: 1 } });
    expect(done.body.items[0]).toMatchObject({ status: 'FAILED', failureReason: 'execution reverted' });
    // The failed item's 10.00 + 0.10 came back: 100 − 20.20.
    expect(await ledgerMatchesBalance(t.db, t.tenant.id)).toBe('79.80');
    const rows = await t.db
      .select({ type: events.type, data: events.data })
      .from(events)
      .where(and(eq(events.tenantId, t.tenant.id), eq(events.subjectId, res.body.id)))
      .orderBy(events.id);
    expect(rows.map((r) => r.type)).toEqual(['payout.item.failed', 'payout.item.completed', 'payout.completed']);
    expect(rows[2]!.data).toMatchObject({ id: res.body.id, itemCount: 2, completed: 1, failed: 1 });
  });
});
