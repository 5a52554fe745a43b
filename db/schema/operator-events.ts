import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

/**
 * Events for the gateway's operator, never a tenant's: a solvency shortfall found or cleared, a gas wallet
 * under its floor. Append-only history (the console lists them); never delivered to tenants' webhooks,
 * which is why they are not rows of `events`.
 */
export const operatorEvents = pgTable(
  'operator_events',
  {
    id: text().primaryKey(),
    /** solvency.shortfall, solvency.recovered, gas_wallet.below_floor, gas_wallet.recovered. */
    type: text().notNull(),
    /** What it is about: `<mode>:<chain>:<asset>`. */
    subject: text().notNull(),
    data: jsonb().$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('operator_events_created_idx').on(t.createdAt.desc())],
);

export type OperatorEvent = typeof operatorEvents.$inferSelect;
