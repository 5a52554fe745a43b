-- Queue tables: every delivery row is updated twice (claim, outcome). Free space on each page lets the claim
-- update stay HOT (no new index entries), and early autovacuum keeps dead entries from piling up at the head
-- of the due index that every claim scans.
ALTER TABLE "webhook_deliveries" SET (fillfactor = 70, autovacuum_vacuum_scale_factor = 0.01, autovacuum_vacuum_threshold = 1000, autovacuum_analyze_scale_factor = 0.02);--> statement-breakpoint
ALTER TABLE "events" SET (autovacuum_vacuum_scale_factor = 0.02, autovacuum_vacuum_threshold = 1000);
