import { index, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

/**
 * Every screening decision against the SDN snapshot (docs/screening.md): a destination refused, a payer's payment held,
 * a hold released or kept frozen by a compliance user, a queued withdrawal stopped before signing. Append-only: a
 * trigger (migration screening_append_only) refuses UPDATE, DELETE and TRUNCATE. Clean screenings are counted in
 * metrics only (gateway_screenings_total): one row per withdrawal would grow without telling anyone anything.
 */
export const screeningDecisions = pgTable(
  'screening_decisions',
  {
    id: text().primaryKey(),
    /** null for a decision not tied to one tenant (none yet; kept nullable like audit_log). */
    tenantId: text(),
    mode: text({ enum: ['live', 'test'] }),
    /** destination: money would go there; payer: money came from there. */
    subject: text({ enum: ['destination', 'payer'] }).notNull(),
    /** The family and the address in its identity form (lib/chain/identities.ts). */
    family: text({ enum: ['evm', 'tron', 'solana'] }).notNull(),
    address: text().notNull(),
    /** The list version decided against (date.digest, lib/screening/snapshot.ts). */
    listVersion: text().notNull(),
    outcome: text({ enum: ['refused', 'held', 'released', 'kept_frozen', 'stopped'] }).notNull(),
    /** Where: withdrawal, refund, claim, send_back, allowlist, exchange_withdrawal, payment, lane. */
    path: text().notNull(),
    /** The record decided on, when there is one (mismatched_payments id, withdrawal id). */
    targetId: text(),
    /** Who released or kept frozen (a console user's id); null for the gateway's own decisions. */
    actorId: text(),
    createdAt: createdAt(),
  },
  (t) => [index('screening_decisions_created_idx').on(t.createdAt.desc()), index('screening_decisions_target_idx').on(t.targetId)],
);
