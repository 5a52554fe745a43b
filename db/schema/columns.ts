import { numeric, text, timestamp } from 'drizzle-orm/pg-core';

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
