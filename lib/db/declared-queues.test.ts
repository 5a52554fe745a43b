import { sql } from 'drizzle-orm';
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { eventOutbox, eventOutboxState, webhookQueue, webhookQueueState } from '@/db/schema';
import { getDb, rowsOf } from '@/lib/db';

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

// The queue tables are created by hand-written SQL (partitioned, migrations 0021-0024) and only declared in
// db/schema for typing: the declaration must say what the database has, column for column.
describe('queue tables declared in db/schema', () => {
  it.each([webhookQueue, webhookQueueState, eventOutbox, eventOutboxState].map((t) => [getTableConfig(t as PgTable).name, t]))(
    '%s: the declared columns are the database columns',
    async (name, table) => {
      const db = await getDb();
      const actual = rowsOf<{ column_name: string; is_nullable: string; data_type: string }>(
        await db.execute(sql`select column_name, is_nullable, data_type from information_schema.columns
                              where table_schema = 'public' and table_name = ${name} order by column_name`),
      ).map((c) => `${c.column_name} ${c.data_type} ${c.is_nullable === 'NO' ? 'not null' : 'null'}`);
      const kinds: Record<string, string> = {
        PgText: 'text',
        PgSmallInt: 'smallint',
        PgInteger: 'integer',
        PgBoolean: 'boolean',
        PgTimestamp: 'timestamp with time zone',
      };
      const declared = getTableConfig(table as PgTable)
        .columns.map((c) => `${snake(c.name)} ${kinds[c.columnType] ?? c.columnType} ${c.notNull ? 'not null' : 'null'}`)
        .sort();
      expect(actual.length).toBeGreaterThan(0);
      expect(declared).toEqual(actual);
    },
  );
});
