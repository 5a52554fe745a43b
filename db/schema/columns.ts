import { sql } from 'drizzle-orm';
import { check, numeric, text, timestamp } from 'drizzle-orm/pg-core';
import { ASSETS, CHAINS } from '../../lib/config/rails';

/** Money: exact decimal, never float. 38 digits with 18 after the point covers USDT's 18 on-chain decimals. */
export const money = (name?: string) => (name ? numeric(name, { precision: 38, scale: 18 }) : numeric({ precision: 38, scale: 18 }));

/** Fee rates as fractions (0.01 = 1 percent). */
export const rate = () => numeric({ precision: 10, scale: 6 });

/** A percentage (0.5 = 0.5 percent), as settings are typed; at most 100 with 4 decimals. */
export const percent = () => numeric({ precision: 7, scale: 4 });

/** An exchange rate: units of one currency per unit of another. */
export const exchangeRate = () => numeric({ precision: 38, scale: 18 });

export const createdAt = () => timestamp({ withTimezone: true, mode: 'date', precision: 3 }).notNull().defaultNow();
export const tstz = () => timestamp({ withTimezone: true, mode: 'date', precision: 3 });

/** live | test: every tenant-owned row belongs to exactly one mode. */
export const mode = () => text({ enum: ['live', 'test'] }).notNull();

/**
 * A network (wire name, `chain`) and an asset (`token`, a balance's `currency`): typed from the rails table
 * (lib/config/rails.ts), checked by PostgreSQL (`railChecks`), never defaulted, so no row is on BSC or in USDT
 * because a writer forgot to say.
 */
export const chainColumn = () => text({ enum: CHAINS }).notNull();
export const assetColumn = () => text({ enum: ASSETS }).notNull();

const list = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

/** CHECK constraints keeping the database to the rails table's names (what drizzle's text enums only type); SQL column names. */
export function railChecks(table: string, columns: { chain?: string; asset?: string }) {
  return [
    ...(columns.chain ? [check(`${table}_${columns.chain}_ck`, sql`${sql.identifier(columns.chain)} in (${list(CHAINS)})`)] : []),
    ...(columns.asset ? [check(`${table}_${columns.asset}_ck`, sql`${sql.identifier(columns.asset)} in (${list(ASSETS)})`)] : []),
  ];
}
