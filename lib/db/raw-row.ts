import type { PgTable } from 'drizzle-orm/pg-core';

/** camelCase → snake_case, as drizzle's `casing: 'snake_case'` names unnamed columns. */
type Snake<S extends string> = S extends `${infer H}${infer T}` ? `${H extends Lowercase<H> ? H : `_${Lowercase<H>}`}${Snake<T>}` : S;

/**
 * The row type of a raw statement (`db.execute(sql...)` + `rowsOf`) that
 * selects columns of `T` under their database names. `S` maps the columns'
 * property names to the values the driver returns (text for numeric and int8,
 * string for timestamps read without the builder): a property that is not a
 * column of `T` (renamed or removed) fails tsc here, instead of reading
 * undefined at run time.
 *
 *   rowsOf<RawRow<typeof invoices, { id: string; tenantId: string }>>(res)  // { id: string; tenant_id: string }[]
 */
export type RawRow<T extends PgTable, S extends { [K in keyof S]: K extends keyof T['$inferSelect'] ? unknown : never }> = {
  [P in keyof S & string as Snake<P>]: S[P];
};
