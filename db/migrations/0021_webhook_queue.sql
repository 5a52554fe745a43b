-- The hot queue of webhook deliveries (issue 20): one row per undelivered delivery (PENDING or FAILED in
-- webhook_deliveries), and nothing else, so the claim never walks delivered history or its dead tuples.
-- Two list partitions, slot 0 and 1: new rows go to the active slot (webhook_queue_state); the rotation
-- (lib/webhooks/rotate-queue.ts) moves the few live rows of the inactive slot into the active one, TRUNCATEs
-- the inactive slot (which frees its dead tuples at once, whatever autovacuum does) and makes it the active one.
CREATE TABLE "webhook_queue" (
	"slot" smallint NOT NULL,
	"delivery_id" text NOT NULL,
	"tenant_id" text NOT NULL,
	"mode" text NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"endpoint_id" text,
	"post_back_url" text,
	-- endpoint id, or the postBackUrl: what per-receiver limits count
	"target" text NOT NULL,
	"attempt_count" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp (3) with time zone NOT NULL,
	-- a worker holds the row until then; past it, another worker may retry the attempt
	"claimed_until" timestamp (3) with time zone,
	-- random token of the claiming worker: only it may record the attempt's outcome
	"claim_token" text
) PARTITION BY LIST ("slot");
--> statement-breakpoint
-- Room on each page for the claim's and the retry's updates of a row (HOT: no new index entries).
CREATE TABLE "webhook_queue_0" PARTITION OF "webhook_queue" FOR VALUES IN (0) WITH (fillfactor = 80);
--> statement-breakpoint
CREATE TABLE "webhook_queue_1" PARTITION OF "webhook_queue" FOR VALUES IN (1) WITH (fillfactor = 80);
--> statement-breakpoint
-- The claim: the tenants with queued rows (a skip scan), then each one's due rows in order of their due time.
CREATE INDEX "webhook_queue_tenant_due_idx" ON "webhook_queue" USING btree ("tenant_id", "next_attempt_at");
--> statement-breakpoint
-- Recording an outcome, recover and the test send: a delivery's row.
CREATE INDEX "webhook_queue_delivery_idx" ON "webhook_queue" USING btree ("delivery_id");
--> statement-breakpoint
CREATE TABLE "webhook_queue_state" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL CHECK ("id"),
	-- the partition new rows go to
	"slot" smallint NOT NULL,
	"rotated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
INSERT INTO "webhook_queue_state" ("id", "slot") VALUES (true, 0);
--> statement-breakpoint
INSERT INTO "webhook_queue" ("slot", "delivery_id", "tenant_id", "mode", "event_id", "event_type", "endpoint_id", "post_back_url", "target", "attempt_count", "next_attempt_at")
SELECT 0, "id", "tenant_id", "mode", "event_id", "event_type", "endpoint_id", "post_back_url", coalesce("endpoint_id", "post_back_url", ''), "attempt_count", coalesce("next_attempt_at", now())
  FROM "webhook_deliveries" WHERE "status" IN ('PENDING', 'FAILED');
