import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, mode, tstz } from './columns';
import { tenants } from './tenants';

export const EMAIL_KINDS = ['invoice', 'upcoming', 'reminder', 'receipt', 'canceled', 'portal'] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];
/**
 * `held`: written but not to be sent unless released (a period's invoice while automatic collection is tried: sent
 * only if the pull does not happen); `dropped`: a held message that is not needed (the period was pulled);
 * `suppressed`: a test-mode message to an address the operator did not allow (lib/email/test-mode-recipient.ts).
 */
export const EMAIL_STATUSES = ['pending', 'sent', 'failed', 'held', 'dropped', 'suppressed'] as const;

/**
 * The e-mail outbox (issue 48): a message is written in the transaction of what it reports (a period's invoice, a
 * payment) and sent afterwards by the e-mail job with retries and backoff, so sending never holds up or undoes a payment.
 * Rendered when sent, from `data`, so a template fix reaches the messages still waiting.
 */
export const emails = pgTable(
  'emails',
  {
    id: text().primaryKey(),
    tenantId: text()
      .notNull()
      .references(() => tenants.id),
    mode: mode(),
    kind: text({ enum: EMAIL_KINDS }).notNull(),
    /** What it is about (an invoice id): with kind, one message per thing, whoever writes it twice. */
    subjectId: text().notNull(),
    to: text().notNull(),
    /** The template's values (amounts as strings). */
    data: jsonb().$type<Record<string, string>>().notNull(),
    status: text({ enum: EMAIL_STATUSES }).notNull().default('pending'),
    attempts: integer().notNull().default(0),
    nextAttemptAt: tstz().notNull().defaultNow(),
    /**
     * A sender holds the message until then, on the database's clock (never the caller's: a sender whose clock runs
     * ahead, or a test clock, must not take a message another sender is still sending). Null: nobody holds it.
     */
    claimedUntil: tstz(),
    lastError: text(),
    sentAt: tstz(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('emails_once_uq').on(t.kind, t.subjectId),
    /** The dashboard's list of a tenant's messages, newest first (lib/email/list-emails.ts). */
    index('emails_tenant_created_idx').on(t.tenantId, t.mode, t.createdAt),
    /** The sender's queue: pending messages by when they are due. */
    index('emails_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
  ],
);

export type Email = typeof emails.$inferSelect;
