import { getTableColumns, getTableName, SQL, StringChunk, type Column } from 'drizzle-orm';
import { toSnakeCase } from 'drizzle-orm/casing';
import type { PgTable } from 'drizzle-orm/pg-core';
import { rowsOf, type Db } from './index';

interface Compiled {
  /** The statement split around its parameters: text[0] $1 text[1] $2 ... */
  text: StringChunk[];
  columns: Column[];
  /** Database names of the RETURNING columns, in order. */
  returnedNames?: string[];
}

type ColumnMap = Record<string, Column>;
const COLUMNS = new WeakMap<PgTable, { byKey: ColumnMap; allKeys: string[] }>();
const COMPILED = new WeakMap<PgTable, Map<string, Compiled>>();

function columnsOf(table: PgTable) {
  let c = COLUMNS.get(table);
  if (!c) {
    const byKey = getTableColumns(table) as ColumnMap;
    c = { byKey, allKeys: Object.keys(byKey) };
    COLUMNS.set(table, c);
  }
  return c;
}

/** The column's name in the database: the app's drizzle instances use snake_case casing for unnamed columns. */
function dbName(column: Column): string {
  return column.keyAsName ? toSnakeCase(column.name) : column.name;
}

function compile(table: PgTable, keys: string[], returning: readonly string[] | undefined): Compiled {
  let perTable = COMPILED.get(table);
  if (!perTable) COMPILED.set(table, (perTable = new Map()));
  const cacheKey = `${keys.join(',')}|${returning?.join(',') ?? ''}`;
  let compiled = perTable.get(cacheKey);
  if (!compiled) {
    const { byKey } = columnsOf(table);
    const columns = keys.map((k) => byKey[k]!);
    const names = columns.map((c) => `"${dbName(c)}"`).join(', ');
    const returnedNames = returning?.map((k) => dbName(byKey[k]!));
    const back = returnedNames === undefined ? '' : ` returning ${returnedNames.map((n) => `"${n}"`).join(', ')}`;
    const text = [`insert into "${getTableName(table)}" (${names}) values (`, ...columns.slice(1).map(() => ', '), `)${back}`];
    compiled = { text: text.map((t) => new StringChunk(t)), columns, returnedNames };
    perTable.set(cacheKey, compiled);
  }
  return compiled;
}

/**
 * Inserts one row, like `db.insert(table).values(values).returning(...)`, but
 * builds the statement text once per table and set of columns. Drizzle's
 * builder re-assembles every insert from column objects each time, which cost
 * more CPU than the database spent on the outbox, audit and withdrawal inserts
 * of the money paths. Values and returned columns go through the same column
 * encoders and decoders as the builder. Undefined fields take their defaults.
 */
export async function insertRow<T extends PgTable>(db: Db, table: T, values: T['$inferInsert'], returning: 'all'): Promise<T['$inferSelect']>;
export async function insertRow<T extends PgTable, K extends keyof T['$inferSelect'] & string = never>(
  db: Db,
  table: T,
  values: T['$inferInsert'],
  returning?: readonly K[],
): Promise<Pick<T['$inferSelect'], K>>;
export async function insertRow(db: Db, table: PgTable, record: Record<string, unknown>, wanted?: readonly string[] | 'all') {
  const keys = Object.keys(record).filter((k) => record[k] !== undefined);
  const returning = wanted === 'all' ? columnsOf(table).allKeys : wanted;
  const compiled = compile(table, keys, returning);
  const { text, columns } = compiled;
  const chunks: unknown[] = [text[0]];
  for (let i = 0; i < columns.length; i++) {
    const v = record[keys[i]!];
    chunks.push(v === null ? null : columns[i]!.mapToDriverValue(v), text[i + 1]);
  }
  const result = await db.execute(new SQL(chunks as never));
  const out: Record<string, unknown> = {};
  if (returning) {
    const row = rowsOf<Record<string, unknown>>(result)[0]!;
    const returnedNames = compiled.returnedNames!;
    const { byKey } = columnsOf(table);
    for (let i = 0; i < returning.length; i++) {
      const k = returning[i]!;
      const column = byKey[k]!;
      const raw = row[returnedNames[i]!];
      out[k] = raw === null || raw === undefined ? null : column.mapFromDriverValue(raw);
    }
  }
  return out;
}
