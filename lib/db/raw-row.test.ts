import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import type { invoices } from '@/db/schema';
import type { RawRow } from './raw-row';
import { textArray } from './text-array';

describe('raw SQL helpers', () => {
  it('RawRow names a raw row by the table: snake_case keys, and tsc refuses a property the table does not have', () => {
    const row: RawRow<typeof invoices, { id: string; tenantId: string; depositAddress: string }> = {
      id: 'inv_1',
      tenant_id: 'ten_1',
      deposit_address: '0xab',
    };
    // @ts-expect-error depositAddr is not a column of invoices (a rename must fail typecheck, not read undefined)
    const renamed: RawRow<typeof invoices, { depositAddr: string }> = { deposit_addr: '0xab' };
    expect([row.deposit_address, renamed]).toBeTruthy();
  });

  it('textArray binds a list as one text[] parameter and refuses what a literal cannot hold', () => {
    const q = new PgDialect().sqlToQuery(textArray(['inv_1', '0xab']));
    expect({ sql: q.sql, params: q.params }).toEqual({ sql: '$1::text[]', params: ['{inv_1,0xab}'] });
    expect(new PgDialect().sqlToQuery(textArray([])).params).toEqual(['{}']);
    for (const bad of ['a,b', 'a b', '{a}', 'a"b', '', 'NULL']) expect(() => textArray([bad])).toThrow(/cannot be bound/);
  });
});
