import { index, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns';

export const AUDIT_ACTOR_KINDS = ['support', 'user', 'api_key', 'system'] as const;
export type AuditActorKind = (typeof AUDIT_ACTOR_KINDS)[number];

/**
 * Who did what to which record, with the record before and after. Append-only:
 * a trigger (migration audit_append_only) refuses UPDATE, DELETE and TRUNCATE,
 * so not even a bug in the application can rewrite history.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: text().primaryKey(),
    /** support: a console user; user: a tenant's dashboard user; api_key: a request made with that key. */
    actorKind: text({ enum: AUDIT_ACTOR_KINDS }).notNull(),
    /** usr_... or key_... */
    actorId: text().notNull(),
    /** Email of a user, name of a key: kept as it was when acting (users and keys can change). */
    actorLabel: text(),
    /** Dotted verb, e.g. tenant.fee_rates_changed, webhook.replayed, api_key.created. */
    action: text().notNull(),
    /** The record acted on: its kind (tenant, invoice, webhook_delivery...) and id. */
    targetType: text().notNull(),
    targetId: text().notNull(),
    /** The tenant the record belongs to, null for gateway-wide records. Tenants read their own rows in Settings. */
    tenantId: text(),
    /** Mode of the record, when it has one. */
    mode: text({ enum: ['live', 'test'] }),
    /** The fields that changed, as they were and as they became; never secrets. */
    before: jsonb().$type<Record<string, unknown>>(),
    after: jsonb().$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    /** Settings > Activity: a tenant's rows, newest first (also the console's tenant filter). */
    index('audit_log_tenant_created_idx').on(t.tenantId, t.createdAt.desc()),
    /** The console's log, newest first. */
    index('audit_log_created_idx').on(t.createdAt.desc()),
    /** "What happened to this record". */
    index('audit_log_target_idx').on(t.targetId),
  ],
);

export type AuditEntry = typeof auditLog.$inferSelect;
