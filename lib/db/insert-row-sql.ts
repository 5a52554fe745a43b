import { getTableName, is, SQL, StringChunk, type Column } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { columnDbName, tableColumns } from './table-columns';

interface Compiled {
  /** The statement split around its parameters: text[0] $1 text[1] $2 ... */
  text: StringChunk[];
  columns: Column[];
  /** Database names of the RETURNING columns, in order. */
  returnedNames?: string[];
}

const COMPILED = new WeakMap<PgTable, Map<string, Compiled>>();
const CTE_LIST = /^[a-z_][a-z0-9_]*(, ?[a-z_][a-z0-9_]*)*$/;

function compile(table: PgTable, keys: string[], from: string | undefined, returning: readonly string[] | undefined): Compiled {
  let perTable = COMPILED.get(table);
  if (!perTable) COMPILED.set(table, (perTable = new Map()));
  const cacheKey = `${keys.join(',')}|${from ?? ''}|${returning?.join(',') ?? ''}`;
  let compiled = perTable.get(cacheKey);
  if (!compiled) {
    // `from` is statement text: only names of the statement's own CTEs, never a value.
    if (from !== undefined && !CTE_LIST.test(from))
      throw new Error(`insertRowSql: from must name CTEs of the statement, got ${JSON.stringify(from)}`);
    const { byKey } = tableColumns(table);
    const columns = keys.map((k) => byKey[k]!);
    const names = columns.map((c) => `"${columnDbName(c)}"`).join(', ');
    const returnedNames = returning?.map((k) => columnDbName(byKey[k]!));
    const back = returnedNames === undefined ? '' : ` returning ${returnedNames.map((n) => `"${n}"`).join(', ')}`;
    // Typed casts: in INSERT ... SELECT, PostgreSQL does not take parameter types from the target columns.
    const text = [
      `insert into "${getTableName(table)}" (${names}) select cast(`,
      ...columns.slice(1).map((c, i) => ` as ${columns[i]!.getSQLType()}), cast(`),
      ` as ${columns[columns.length - 1]!.getSQLType()})${from ? ` from ${from}` : ''}${back}`,
    ];
    compiled = { text: text.map((t) => new StringChunk(t)), columns, returnedNames };
    perTable.set(cacheKey, compiled);
  }
  return compiled;
}

/**
 * `insert into <table> (<the given columns>) select <values> [from <from>] [returning ...]`
 * as a Drizzle SQL fragment, with values through the columns' own encoders.
 * The statement text is built once per table, column set and shape: Drizzle's
 * builder re-assembles every insert from column objects, which cost more CPU
 * than PostgreSQL spent running the money paths' inserts. `from` names a CTE
 * of the same statement, so the row is written only if that CTE returned a row
 * (the withdrawal's debit). Undefined fields take their defaults; a field given as `SQL`
 * is written as that expression.
 */
export function insertRowSql(
  table: PgTable,
  record: Record<string, unknown>,
  opts: { from?: string; returning?: readonly string[] } = {},
): { sql: SQL; returnedNames?: string[] } {
  const keys = Object.keys(record).filter((k) => record[k] !== undefined);
  if (keys.length === 0) throw new Error(`insertRowSql: no values for ${getTableName(table)}`);
  const { text, columns, returnedNames } = compile(table, keys, opts.from, opts.returning);
  const chunks: unknown[] = [text[0]];
  for (let i = 0; i < columns.length; i++) {
    const v = record[keys[i]!];
    // An SQL value is an expression of the statement (the withdrawal's fee, known only once its balance row is locked).
    chunks.push(v === null ? null : is(v, SQL) ? v : columns[i]!.mapToDriverValue(v), text[i + 1]);
  }
  return { sql: new SQL(chunks as never), returnedNames };
}
