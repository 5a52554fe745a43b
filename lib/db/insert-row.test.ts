import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { events, withdrawals } from '@/db/schema';
import { newId } from '@/lib/ids';
import { createTestTenant } from '@/lib/testing/fixtures';
import { insertRow } from './insert-row';
import { insertRowSql } from './insert-row-sql';

describe('insertRow', () => {
  it('stores and returns what the Drizzle builder stores and returns for the same values', async () => {
    const t = await createTestTenant();
    const values = (id: string) => ({
      id,
      tenantId: t.tenant.id,
      mode: 'test' as const,
      chain: 'BSC' as const,
      token: 'USDT' as const,
      kind: 'internal' as const,
      amount: '12.5',
      feeAmount: '0.125',
      netAmount: '12.5',
      destinationAddress: '0x8ba1f109551bD432803012645Ac136ddd64DBA72',
      chainId: 31337,
      postBackUrl: null,
      metadata: { order: 'A-1', note: 'é"\'' },
      gasPrice: undefined,
    });
    const fast = await insertRow(t.db, withdrawals, values(newId('withdrawal')), 'all');
    const [built] = await t.db
      .insert(withdrawals)
      .values(values(newId('withdrawal')))
      .returning();
    const [stored] = await t.db.select().from(withdrawals).where(eq(withdrawals.id, fast.id));

    // Timestamps defaulting to now() differ by the time between the two inserts.
    const { id: _a, createdAt: fastAt, updatedAt: _b, nextAttemptAt: _e, ...fastRest } = fast;
    const { id: _c, createdAt: builtAt, updatedAt: _d, nextAttemptAt: _f, ...builtRest } = built!;
    expect(fastRest).toEqual(builtRest);
    expect(fast).toEqual(stored);
    expect(fastAt).toBeInstanceOf(Date);
    expect(Math.abs(fastAt.getTime() - builtAt.getTime())).toBeLessThan(5_000);
    expect(stored!.metadata).toEqual({ order: 'A-1', note: 'é"\'' });
    expect(stored!.status).toBe('PENDING');
  });

  it('returns only the columns asked for, and nothing when none are', async () => {
    const t = await createTestTenant();
    const id = newId('event');
    const row = {
      id,
      tenantId: t.tenant.id,
      mode: 'test' as const,
      type: 'invoice.paid' as const,
      subjectId: 'inv_x',
      data: { a: [1, 2] },
      postBackUrl: null,
    };
    expect(Object.keys(await insertRow(t.db, events, row, ['createdAt']))).toEqual(['createdAt']);
    expect(await insertRow(t.db, events, { ...row, id: newId('event') })).toEqual({});
    const [stored] = await t.db.select().from(events).where(eq(events.id, id));
    expect(stored!.data).toEqual({ a: [1, 2] });
  });

  it('rolls back with the transaction it runs in', async () => {
    const t = await createTestTenant();
    const id = newId('event');
    await expect(
      t.db.transaction(async (tx) => {
        await insertRow(tx, events, {
          id,
          tenantId: t.tenant.id,
          mode: 'test',
          type: 'invoice.paid',
          subjectId: 'inv_x',
          data: {},
          postBackUrl: null,
        });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await t.db.select().from(events).where(eq(events.id, id))).toEqual([]);
  });

  it("takes only CTE names as `from`: anything else is refused before it reaches the statement's text", () => {
    const row = { id: newId('event'), tenantId: 't', mode: 'test', type: 'invoice.created', subjectId: 's', data: {}, createdAt: new Date() };
    expect(() => insertRowSql(events, row, { from: 'inv, addr' })).not.toThrow();
    for (const from of ['inv; drop table events', 'addr where 1=1 --', 'x)', 'Inv']) {
      expect(() => insertRowSql(events, row, { from }), from).toThrow(/from must name CTEs/);
    }
  });
});
