DROP INDEX "events_undispatched_idx";--> statement-breakpoint
-- The outbox's hot queue (issue 20), built like webhook_queue (0021): one row per undispatched event, in the
-- active of two list partitions; the fan-out reads and deletes these rows, the rotation TRUNCATEs the inactive
-- partition (lib/webhooks/rotate-queue.ts), so the fan-out never walks dispatched history or its dead tuples.
CREATE TABLE "event_outbox" (
	"slot" smallint NOT NULL,
	"event_id" text NOT NULL,
	"tenant_id" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL
) PARTITION BY LIST ("slot");
--> statement-breakpoint
CREATE TABLE "event_outbox_0" PARTITION OF "event_outbox" FOR VALUES IN (0);
--> statement-breakpoint
CREATE TABLE "event_outbox_1" PARTITION OF "event_outbox" FOR VALUES IN (1);
--> statement-breakpoint
-- The fan-out: oldest undispatched events first.
CREATE INDEX "event_outbox_created_idx" ON "event_outbox" USING btree ("created_at");
--> statement-breakpoint
CREATE TABLE "event_outbox_state" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL CHECK ("id"),
	"slot" smallint NOT NULL,
	"rotated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
INSERT INTO "event_outbox_state" ("id", "slot") VALUES (true, 0);
--> statement-breakpoint
-- Every writer of events (outbox.write and the single-statement money paths) queues the event through this
-- trigger, in the same transaction; events written already dispatched (the endpoint test) are not queued.
CREATE FUNCTION "events_to_outbox"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO event_outbox (slot, event_id, tenant_id, created_at)
  VALUES ((SELECT slot FROM event_outbox_state), NEW.id, NEW.tenant_id, NEW.created_at);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "events_to_outbox" AFTER INSERT ON "events" FOR EACH ROW WHEN (NEW.dispatched_at IS NULL) EXECUTE FUNCTION "events_to_outbox"();
--> statement-breakpoint
INSERT INTO "event_outbox" ("slot", "event_id", "tenant_id", "created_at")
SELECT 0, "id", "tenant_id", "created_at" FROM "events" WHERE "dispatched_at" IS NULL;
