import { getTableColumns, type Column } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import type { PgTable } from 'drizzle-orm/pg-core';

type ColumnMap = Record<string, Column>;
const COLUMNS = new WeakMap<PgTable, { byKey: ColumnMap; allKeys: string[] }>();

/** A table's columns by property name, read once per table (for the hand-built statements of the money paths). */
export function tableColumns(table: PgTable) {
  let c = COLUMNS.get(table);
  if (!c) {
    const byKey = getTableColumns(table) as ColumnMap;
    c = { byKey, allKeys: Object.keys(byKey) };
    COLUMNS.set(table, c);
  }
  return c;
}

/** The column's name in the database: the app's drizzle instances use snake_case casing for unnamed columns. */
export function columnDbName(column: Column): string {
  return column.keyAsName ? toSnakeCase(column.name) : column.name;
}
