import type { PgTable } from 'drizzle-orm/pg-core';
import { rowsOf, type Db } from './index';
import { insertRowSql } from './insert-row-sql';
import { tableColumns } from './table-columns';

/**
 * Inserts one row, like `db.insert(table).values(values).returning(...)`, with
 * the statement text built once per table and set of columns (insertRowSql).
 * Returned columns go through the same decoders as the builder's.
 */
export async function insertRow<T extends PgTable>(db: Db, table: T, values: T['$inferInsert'], returning: 'all'): Promise<T['$inferSelect']>;
export async function insertRow<T extends PgTable, K extends keyof T['$inferSelect'] & string = never>(
  db: Db,
  table: T,
  values: T['$inferInsert'],
  returning?: readonly K[],
): Promise<Pick<T['$inferSelect'], K>>;
export async function insertRow(db: Db, table: PgTable, record: Record<string, unknown>, wanted?: readonly string[] | 'all') {
  const { byKey, allKeys } = tableColumns(table);
  const returning = wanted === 'all' ? allKeys : wanted;
  const statement = insertRowSql(table, record, { returning });
  const result = await db.execute(statement.sql);
  const out: Record<string, unknown> = {};
  if (returning) {
    const row = rowsOf<Record<string, unknown>>(result)[0]!;
    for (let i = 0; i < returning.length; i++) {
      const k = returning[i]!;
      const raw = row[statement.returnedNames![i]!];
      out[k] = raw === null || raw === undefined ? null : byKey[k]!.mapFromDriverValue(raw);
    }
  }
  return out;
}
