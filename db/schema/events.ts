import { sql } from 'drizzle-orm';
import { boolean, check, index, jsonb, pgTable, smallint, text } from 'drizzle-orm/pg-core';
import { createdAt, mode, tstz } from './columns';

/**
 * The outbox: every event is inserted in the same transaction as the state
 * change it reports. An insert trigger (migration 0022) puts each undispatched
 * event into the hot queue `event_outbox`, which the webhook fan-out reads
 * (lib/webhooks/dispatch-events.ts), so the fan-out never walks dispatched history.
 */
export const events = pgTable(
  'events',
  {
    id: text().primaryKey(),
    tenantId: text().notNull(),
    mode: mode(),
    type: text().notNull(),
    /** Id of the record the event is about (inv_, wd_, ord_...), for per-record timelines. */
    subjectId: text(),
    data: jsonb().notNull(),
    /** Withdrawals created with a postBackUrl: their events go only there (signed with the tenant's postback secret), never to endpoints. */
    postBackUrl: text(),
    createdAt: createdAt(),
    /**
     * Set at insert only for events that skip the fan-out (an endpoint's test event); the insert trigger queues
     * the others in event_outbox, and an event is dispatched when its row leaves it. Never updated: events is
     * history, and an update rewrote each row (with its data) on a new page.
     */
    dispatchedAt: tstz(),
  },
  (t) => [
    /** Invoice/withdrawal timelines: events of one record in order. */
    index('events_subject_idx').on(t.subjectId, t.createdAt),
  ],
);

/**
 * The outbox's hot queue (issue 20): one row per undispatched event, filled by the `events_to_outbox` insert
 * trigger. Created by hand-written SQL (migrations 0022, 0023) partitioned by LIST (slot); declared here
 * (migration 0037 is a no-op for it) so raw rows are typed.
 */
export const eventOutbox = pgTable(
  'event_outbox',
  {
    slot: smallint().notNull(),
    eventId: text().notNull(),
    tenantId: text().notNull(),
    createdAt: tstz().notNull(),
  },
  (t) => [index('event_outbox_created_idx').on(t.createdAt), index('event_outbox_event_idx').on(t.eventId)],
);

/** The one row naming the partition new event_outbox rows go to (migration 0022). */
export const eventOutboxState = pgTable(
  'event_outbox_state',
  {
    id: boolean().primaryKey().notNull().default(true),
    slot: smallint().notNull(),
    rotatedAt: tstz().notNull().defaultNow(),
  },
  (t) => [check('event_outbox_state_id_check', sql`${t.id}`)],
);
