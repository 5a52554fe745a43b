import { pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { exchangeRate, mode, tstz } from './columns';

/**
 * The last good fiat rate per mode and currency (USDT per unit), shared by
 * every process: when the rate source is down, invoices are still priced
 * from here while the rate is younger than FIAT_RATE_MAX_AGE_SECONDS.
 */
export const fiatRates = pgTable(
  'fiat_rates',
  {
    mode: mode(),
    currency: text().notNull(),
    rate: exchangeRate().notNull(),
    source: text().notNull(),
    /** When the source answered with this rate. */
    fetchedAt: tstz().notNull(),
  },
  (t) => [primaryKey({ columns: [t.mode, t.currency] })],
);
